package scaling

import (
	"bytes"
	"os"
	"strconv"
	"strings"
	"testing"

	"sigs.k8s.io/yaml"
)

// TestIndexedJobExample keeps examples/distributed/indexed-job.yaml
// consistent with docs/distributed.md and ParseShard: an Indexed Job whose
// completions equal the N of --shard, K taken from JOB_COMPLETION_INDEX,
// and a merge of N shard files.
func TestIndexedJobExample(t *testing.T) {
	data, err := os.ReadFile("../examples/distributed/indexed-job.yaml")
	if err != nil {
		t.Fatal(err)
	}
	type container struct {
		Command []string `json:"command"`
		Args    []string `json:"args"`
		Env     []struct {
			Name, Value string
		} `json:"env"`
	}
	type job struct {
		Kind string `json:"kind"`
		Spec struct {
			CompletionMode string `json:"completionMode"`
			Completions    int    `json:"completions"`
			Template       struct {
				Spec struct {
					RestartPolicy string      `json:"restartPolicy"`
					Containers    []container `json:"containers"`
				} `json:"spec"`
			} `json:"template"`
		} `json:"spec"`
	}
	var search, merge *job
	for _, doc := range bytes.Split(data, []byte("\n---\n")) {
		var j job
		if err := yaml.Unmarshal(doc, &j); err != nil {
			t.Fatal(err)
		}
		if j.Kind != "Job" {
			continue
		}
		if j.Spec.CompletionMode == "Indexed" {
			search = &j
		} else {
			merge = &j
		}
	}
	if search == nil || merge == nil {
		t.Fatal("want an Indexed search Job and a merge Job")
	}
	c := search.Spec.Template.Spec.Containers[0]
	shards := ""
	for _, e := range c.Env {
		if e.Name == "SHARDS" {
			shards = e.Value
		}
	}
	cmd := strings.Join(c.Args, " ")
	if shards == "" || shards != strconv.Itoa(search.Spec.Completions) {
		t.Errorf("SHARDS=%q but completions %d", shards, search.Spec.Completions)
	}
	if !strings.Contains(cmd, `--shard "${JOB_COMPLETION_INDEX}/${SHARDS}"`) || !strings.Contains(cmd, "--shard-out") {
		t.Errorf("search command %q", cmd)
	}
	if _, err := ParseShard(strconv.Itoa(search.Spec.Completions-1)+"/"+shards, Interleaved); err != nil {
		t.Errorf("the last index is not a valid shard: %v", err)
	}
	if m := strings.Join(merge.Spec.Template.Spec.Containers[0].Args, " "); !strings.Contains(m, "kivi merge") || !strings.Contains(m, "-of-"+shards+".json") {
		t.Errorf("merge command %q", m)
	}
}
