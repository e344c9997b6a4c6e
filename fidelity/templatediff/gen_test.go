package templatediff

import (
	"encoding/json"

	"pgregory.net/rapid"
)

// pod is a pod template by meaning; render writes it one of many ways.
type pod struct {
	Image, PullPolicy string
	CPU               int    // millicores, 0: no request
	Memory            string // "", "1Gi", "256Mi"
	Port              bool
	Protocol          string // "" (TCP) or UDP
	Probe             bool
	ProbePeriod       int // 0: the default 10
	DNSPolicy         string
	Grace             int // -1: the default 30
	HostNetwork       bool
	Env               int // 0 none, 1 a value, 2 a fieldRef
	Volume            int // 0 none, 1 no source (emptyDir), 2 a secret
	PodRunAsNonRoot   bool
	ContainerSC       bool // an empty container securityContext
	HashLabel         bool
}

var images = []string{"web:1.0", "web", "web:latest", "registry.local:5000/team/web", "web@sha256:" + hex64, "Web:1.0", "localhost/web"}

const hex64 = "0123456789abcdef0123456789abcdef0123456789abcdef0123456789abcdef"

func genPod() *rapid.Generator[pod] {
	return rapid.Custom(func(t *rapid.T) pod {
		return pod{
			Image:           rapid.SampledFrom(images).Draw(t, "image"),
			PullPolicy:      rapid.SampledFrom([]string{"", "", "Always", "IfNotPresent", "Never"}).Draw(t, "pullPolicy"),
			CPU:             rapid.SampledFrom([]int{0, 250, 500, 1000}).Draw(t, "cpu"),
			Memory:          rapid.SampledFrom([]string{"", "1Gi", "256Mi"}).Draw(t, "memory"),
			Port:            rapid.Bool().Draw(t, "port"),
			Protocol:        rapid.SampledFrom([]string{"", "", "UDP"}).Draw(t, "protocol"),
			Probe:           rapid.Bool().Draw(t, "probe"),
			ProbePeriod:     rapid.SampledFrom([]int{0, 0, 5}).Draw(t, "probePeriod"),
			DNSPolicy:       rapid.SampledFrom([]string{"", "", "Default"}).Draw(t, "dnsPolicy"),
			Grace:           rapid.SampledFrom([]int{-1, -1, 0, 60}).Draw(t, "grace"),
			HostNetwork:     rapid.IntRange(0, 4).Draw(t, "hostNetwork") == 0,
			Env:             rapid.IntRange(0, 2).Draw(t, "env"),
			Volume:          rapid.IntRange(0, 2).Draw(t, "volume"),
			PodRunAsNonRoot: rapid.IntRange(0, 4).Draw(t, "runAsNonRoot") == 0,
			ContainerSC:     rapid.IntRange(0, 4).Draw(t, "containerSC") == 0,
			HashLabel:       rapid.IntRange(0, 4).Draw(t, "hashLabel") == 0,
		}
	})
}

// change returns p with one field really changed.
func change(t *rapid.T, p pod) pod {
	switch rapid.IntRange(0, 11).Draw(t, "field") {
	case 0:
		p.CPU = map[int]int{0: 500, 250: 500, 500: 1000, 1000: 250}[p.CPU]
	case 1:
		p.Memory = map[string]string{"": "1Gi", "1Gi": "256Mi", "256Mi": ""}[p.Memory]
	case 2:
		p.PullPolicy = map[string]string{"": "Never", "Always": "Never", "IfNotPresent": "Never", "Never": "Always"}[p.PullPolicy]
	case 3:
		p.Port = !p.Port
	case 4:
		p.Probe = !p.Probe
	case 5:
		p.DNSPolicy = map[string]string{"": "Default", "Default": ""}[p.DNSPolicy]
	case 6:
		p.Grace = map[int]int{-1: 0, 0: 60, 60: -1}[p.Grace]
	case 7:
		p.Env = (p.Env + 1) % 3
	case 8:
		p.Volume = (p.Volume + 1) % 3
	case 9:
		p.ContainerSC = !p.ContainerSC
	case 10:
		p.HashLabel = !p.HashLabel
	case 11:
		p.Image = map[string]string{"web:1.0": "web:1.1"}[p.Image]
		if p.Image == "" {
			p.Image = "web:1.0"
		}
	}
	return p
}

// render writes p as JSON, each field in one of the spellings the API
// server stores alike.
func (p pod) render(t *rapid.T, side string) []byte {
	pick := func(label string, options ...any) any {
		return options[rapid.IntRange(0, len(options)-1).Draw(t, side+label)]
	}
	const absent = "\x00absent"
	set := func(m map[string]any, k string, v any) {
		if v != absent {
			m[k] = v
		}
	}
	num := func(s string) json.Number { return json.Number(s) }
	c := map[string]any{"name": "c", "image": p.Image}
	switch p.PullPolicy {
	case "":
		def := "IfNotPresent"
		if p.Image == "web" || p.Image == "web:latest" || p.Image == "localhost/web" || p.Image == "registry.local:5000/team/web" {
			def = "Always"
		}
		set(c, "imagePullPolicy", pick("pull", absent, nil, "", def))
	default:
		c["imagePullPolicy"] = p.PullPolicy
	}
	set(c, "terminationMessagePath", pick("tmp", absent, nil, "", "/dev/termination-log"))
	set(c, "terminationMessagePolicy", pick("tmpol", absent, "File"))
	requests := map[string]any{}
	switch p.CPU {
	case 250:
		requests["cpu"] = pick("cpu", "250m", num("0.25"), "0.25", "0.2500")
	case 500:
		requests["cpu"] = pick("cpu", "500m", num("0.5"), "0.5", "500000u")
	case 1000:
		requests["cpu"] = pick("cpu", num("1"), "1", "1000m", "1.0")
	}
	switch p.Memory {
	case "1Gi":
		requests["memory"] = pick("memory", "1Gi", "1024Mi", num("1073741824"), "1073741824")
	case "256Mi":
		requests["memory"] = pick("memory", "256Mi", "0.25Gi", num("268435456"))
	}
	if len(requests) > 0 {
		res := map[string]any{"requests": requests}
		set(res, "limits", pick("limits", absent, nil, map[string]any{}))
		c["resources"] = res
	} else {
		set(c, "resources", pick("resources", absent, nil, map[string]any{}, map[string]any{"requests": map[string]any{}}))
	}
	if p.Port {
		port := map[string]any{"containerPort": num("8080")}
		if p.Protocol == "" {
			set(port, "protocol", pick("protocol", absent, "TCP", ""))
		} else {
			port["protocol"] = p.Protocol
		}
		set(port, "hostPort", pick("hostPort", absent, num("0")))
		c["ports"] = []any{port}
	} else {
		set(c, "ports", pick("ports", absent, nil, []any{}))
	}
	if p.Probe {
		get := map[string]any{"port": num("8080")}
		set(get, "path", pick("path", absent, "/", ""))
		set(get, "scheme", pick("scheme", absent, "HTTP"))
		probe := map[string]any{"httpGet": get}
		if p.ProbePeriod == 0 {
			set(probe, "periodSeconds", pick("period", absent, num("10"), num("0")))
		} else {
			probe["periodSeconds"] = num("5")
		}
		set(probe, "timeoutSeconds", pick("timeout", absent, num("1")))
		set(probe, "successThreshold", pick("success", absent, num("1")))
		set(probe, "failureThreshold", pick("failure", absent, num("3"), num("0")))
		c["readinessProbe"] = probe
	} else {
		set(c, "readinessProbe", pick("probe", absent, nil))
	}
	switch p.Env {
	case 0:
		set(c, "env", pick("env", absent, nil, []any{}))
	case 1:
		c["env"] = []any{map[string]any{"name": "A", "value": "x"}}
	case 2:
		ref := map[string]any{"fieldPath": "metadata.name"}
		set(ref, "apiVersion", pick("apiVersion", absent, "v1"))
		c["env"] = []any{map[string]any{"name": "A", "valueFrom": map[string]any{"fieldRef": ref}}}
	}
	if p.ContainerSC {
		c["securityContext"] = map[string]any{}
	} else {
		set(c, "securityContext", pick("csc", absent, nil))
	}
	spec := map[string]any{"containers": []any{c}}
	if p.DNSPolicy == "" {
		set(spec, "dnsPolicy", pick("dns", absent, nil, "", "ClusterFirst"))
	} else {
		spec["dnsPolicy"] = p.DNSPolicy
	}
	set(spec, "restartPolicy", pick("restart", absent, "", "Always"))
	set(spec, "schedulerName", pick("scheduler", absent, "", "default-scheduler"))
	if p.Grace < 0 {
		set(spec, "terminationGracePeriodSeconds", pick("grace", absent, nil, num("30")))
	} else {
		spec["terminationGracePeriodSeconds"] = num(map[int]string{0: "0", 60: "60"}[p.Grace])
	}
	if p.HostNetwork {
		spec["hostNetwork"] = true
	} else {
		set(spec, "hostNetwork", pick("hostNetwork", absent, false))
	}
	switch p.Volume {
	case 0:
		set(spec, "volumes", pick("volumes", absent, nil, []any{}))
	case 1:
		spec["volumes"] = []any{pick("emptyDir", map[string]any{"name": "v"}, map[string]any{"name": "v", "emptyDir": map[string]any{}},
			map[string]any{"name": "v", "secret": nil})}
	case 2:
		secret := map[string]any{"secretName": "s"}
		set(secret, "defaultMode", pick("mode", absent, num("420")))
		spec["volumes"] = []any{map[string]any{"name": "v", "secret": secret}}
	}
	if p.PodRunAsNonRoot {
		spec["securityContext"] = map[string]any{"runAsNonRoot": true}
	} else {
		set(spec, "securityContext", pick("psc", absent, nil, map[string]any{}))
	}
	set(spec, "nodeSelector", pick("nodeSelector", absent, nil, map[string]any{}))
	labels := map[string]any{"app": "web"}
	if p.HashLabel {
		labels["pod-template-hash"] = "abc"
	}
	meta := map[string]any{"labels": labels}
	set(meta, "annotations", pick("annotations", absent, nil, map[string]any{}))
	set(meta, "creationTimestamp", pick("creationTimestamp", absent, nil))
	js, err := json.Marshal(map[string]any{"metadata": meta, "spec": spec})
	if err != nil {
		t.Fatal(err)
	}
	return js
}
