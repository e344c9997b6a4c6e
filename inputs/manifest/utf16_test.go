package manifest

import (
	"strings"
	"testing"
	"unicode/utf16"
)

// encodeUTF16 writes text as Windows PowerShell 5's `>` does: UTF-16
// with a byte-order mark, little-endian unless big is set.
func encodeUTF16(text string, big bool) []byte {
	out := []byte{0xFF, 0xFE}
	if big {
		out = []byte{0xFE, 0xFF}
	}
	for _, u := range utf16.Encode([]rune(text)) {
		if big {
			out = append(out, byte(u>>8), byte(u))
		} else {
			out = append(out, byte(u), byte(u>>8))
		}
	}
	return out
}

// TestUTF16Files: a UTF-16 file is read as kubectl reads it, its first
// document only (apimachinery's YAMLOrJSONDecoder finds no separator in
// it); when it holds more, the warning says how many are left out.
func TestUTF16Files(t *testing.T) {
	dep := webDeployment("      containers: [{name: c, resources: {requests: {cpu: 100m}}}]\n")
	hpa := "apiVersion: autoscaling/v2\nkind: HorizontalPodAutoscaler\nmetadata: {name: web}\nspec: {scaleTargetRef: {apiVersion: apps/v1, kind: Deployment, name: web}, maxReplicas: 3}\n"
	for _, tc := range []struct {
		name string
		data []byte
		warn string
	}{
		{"little-endian, two documents", encodeUTF16(strings.ReplaceAll(dep+"---\n# a comment\n---\n"+hpa, "\n", "\r\n"), false),
			"web.yaml: the file is UTF-16 and holds 2 documents: kubectl reads its first document only (it finds no \"---\" separator in UTF-16 text), and so does this reader, so the other one is neither applied nor verified (accepted: UTF-8, e.g. PowerShell's Out-File -Encoding utf8)"},
		{"big-endian, two documents", encodeUTF16(dep+"---\n"+hpa, true), "holds 2 documents"},
		{"one document", encodeUTF16(dep, false), ""},
		{"UTF-8", []byte(dep + "---\n" + hpa), ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r, err := LoadStream([]File{{Name: "web.yaml", Data: tc.data}}, &File{Name: "nodes.yaml", Data: []byte(oneNode)}, nil, testOptions())
			if err != nil {
				t.Fatal(err)
			}
			all := strings.Join(warningTexts(r), "\n")
			if tc.warn == "" && strings.Contains(all, "UTF-16") || !strings.Contains(all, tc.warn) {
				t.Errorf("warnings %q, want %q", all, tc.warn)
			}
			if len(r.Cluster.Deployments) != 1 {
				t.Fatalf("%d deployments read, want 1", len(r.Cluster.Deployments))
			}
		})
	}
}
