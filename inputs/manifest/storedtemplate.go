package manifest

import (
	"bytes"
	"encoding/json"
	"math/big"
	"regexp"
	"strconv"
	"strings"
)

// The API server does not keep a pod template as written: it decodes it
// into Go types (null, an empty list and an absent field become one; an
// empty object stays only where the field is a pointer), applies the
// defaults of the apps/v1 and core/v1 defaulting (SetDefaults_PodSpec,
// SetDefaults_Container, SetDefaults_Probe, the volume sources', the
// declarative ones such as a port's protocol TCP) and rounds resource
// quantities up to whole milli-units (SetDefaults_ResourceList). The
// Deployment controller then finds a Deployment's ReplicaSet by comparing
// templates semantically (EqualIgnoreHash: quantities by value, the
// pod-template-hash label left out), and the StatefulSet controller its
// revision by the bytes of the stored template's JSON (history
// EqualRevision: a quantity in its canonical text, which keeps its
// format: 1Gi and 1073741824 differ, 0.5 and 500m do not). So a kubectl
// apply whose template differs from the live one only in such ways rolls
// nothing out.
//
// StoredPodTemplate is that comparison: the key it returns is equal for
// two templates exactly where the controller finds them equal, within
// the fields it knows (storedTemplateSchema). A field it does not know
// is compared as written once its nulls and empty lists are dropped: an
// explicit default there is a difference, where upstream would see none
// (docs/divergences.md).

// StoredPodTemplate returns a key of the pod template js (a workload's
// spec.template, JSON) as the API server stores it: two templates are
// the same revision of a Deployment (statefulSet false) or a StatefulSet
// exactly when their keys are equal. A template that is not a JSON
// object is its own key.
func StoredPodTemplate(js []byte, statefulSet bool) string {
	d := json.NewDecoder(bytes.NewReader(js))
	d.UseNumber()
	var v any
	if err := d.Decode(&v); err != nil {
		return string(js)
	}
	m, ok := v.(map[string]any)
	if !ok {
		return string(js)
	}
	n := storedNormaliser{statefulSet: statefulSet}
	out, err := json.Marshal(n.object(m, templateSchema))
	if err != nil {
		return string(js)
	}
	return string(out)
}

// storedNormaliser normalises one template.
type storedNormaliser struct {
	// statefulSet keeps a quantity's format (the revision's bytes);
	// otherwise only its value counts (Semantic.DeepEqual).
	statefulSet bool
}

// fieldKind is how the Go type of an API field decodes and compares.
type fieldKind uint8

const (
	// scalar is a string, bool or number field of no pointer type: its
	// zero value is absence.
	scalar fieldKind = iota
	// ptrScalar is a pointer to one: an explicit zero is kept.
	ptrScalar
	// stringMap is a map: empty is absence.
	stringMap
	// resourceList is a v1.ResourceList, rounded up to milli-units.
	resourceList
	// quantity is a resource.Quantity (not rounded): zero is absence.
	quantity
	// ptrQuantity is a *resource.Quantity.
	ptrQuantity
	// object is a struct of no pointer type: empty is absence.
	object
	// ptrObject is a pointer to a struct: {} is kept.
	ptrObject
	// list is a slice: empty is absence.
	list
	// labels is the template's metadata.labels: a stringMap whose
	// pod-template-hash the Deployment controller ignores.
	labels
)

// field is one known field: its kind and, for objects and lists, the
// schema of the object (the list's elements); nil is a list of scalars
// or an object of unknown fields.
type field struct {
	kind   fieldKind
	schema *schema
}

// schema is a known struct: its fields and its defaulting.
type schema struct {
	fields map[string]field
	// defaults fills in what the API server's defaulting sets, on the
	// object with its zero fields already dropped.
	defaults func(m map[string]any)
}

// object normalises m per s (nil: unknown fields).
func (n storedNormaliser) object(m map[string]any, s *schema) map[string]any {
	out := make(map[string]any, len(m))
	for k, v := range m {
		var f field
		known := false
		if s != nil {
			f, known = s.fields[k]
		}
		if !known {
			if v = n.unknown(v); v != nil {
				out[k] = v
			}
			continue
		}
		if v = n.value(v, f); v != nil {
			out[k] = v
		}
	}
	if s != nil && s.defaults != nil {
		s.defaults(out)
	}
	return out
}

// value normalises the value v of a known field f; nil drops the field.
func (n storedNormaliser) value(v any, f field) any {
	if v == nil {
		return nil
	}
	switch f.kind {
	case scalar:
		if isZeroScalar(v) {
			return nil
		}
		return canonicalNumber(v)
	case ptrScalar:
		return canonicalNumber(v)
	case stringMap, labels:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		if f.kind == labels && !n.statefulSet {
			delete(m, "pod-template-hash")
		}
		if len(m) == 0 {
			return nil
		}
		return m
	case resourceList:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		out := make(map[string]any, len(m))
		for k, q := range m {
			out[k] = n.quantity(q, true)
		}
		if len(out) == 0 {
			return nil
		}
		return out
	case quantity:
		q := n.quantity(v, false)
		if q == "0" {
			return nil
		}
		return q
	case ptrQuantity:
		return n.quantity(v, false)
	case object, ptrObject:
		m, ok := v.(map[string]any)
		if !ok {
			return v
		}
		o := n.object(m, f.schema)
		if len(o) == 0 && f.kind == object {
			return nil
		}
		return o
	case list:
		l, ok := v.([]any)
		if !ok {
			return v
		}
		if len(l) == 0 {
			return nil
		}
		out := make([]any, len(l))
		for i, e := range l {
			if m, ok := e.(map[string]any); ok && f.schema != nil {
				out[i] = n.object(m, f.schema)
			} else {
				out[i] = n.unknown(e)
			}
		}
		return out
	}
	return v
}

// unknown normalises a field the schema does not know: null and empty
// lists are absence whatever the Go type; the rest stays as written.
func (n storedNormaliser) unknown(v any) any {
	switch x := v.(type) {
	case nil:
		return nil
	case []any:
		if len(x) == 0 {
			return nil
		}
		out := make([]any, len(x))
		for i, e := range x {
			out[i] = n.unknown(e)
		}
		return out
	case map[string]any:
		return n.object(x, nil)
	}
	return canonicalNumber(v)
}

func isZeroScalar(v any) bool {
	switch x := v.(type) {
	case string:
		return x == ""
	case bool:
		return !x
	case json.Number:
		f, err := x.Float64()
		return err == nil && f == 0
	}
	return false
}

// canonicalNumber writes an integral JSON number as an integer (80 and
// 80.0 decode alike).
func canonicalNumber(v any) any {
	x, ok := v.(json.Number)
	if !ok {
		return v
	}
	r, ok := new(big.Rat).SetString(string(x))
	if !ok || !r.IsInt() {
		return v
	}
	return json.Number(r.Num().String())
}

// quantity returns the stored text of quantity v: its canonical form
// (resource.Quantity.String) for a StatefulSet, its value otherwise;
// milli rounds up to whole milli-units first. Text that is not a
// quantity is kept (the API server refuses it).
func (n storedNormaliser) quantity(v any, milli bool) string {
	var text string
	switch x := v.(type) {
	case string:
		text = strings.TrimSpace(x)
	case json.Number:
		text = string(x)
	default:
		b, _ := json.Marshal(v)
		return string(b)
	}
	q, err := ParseQuantity(text)
	if err != nil {
		return "invalid:" + text
	}
	r := q.Rat()
	if milli {
		thousand := big.NewRat(1000, 1)
		m := new(big.Rat).Mul(r, thousand)
		var k *big.Int
		if m.Sign() >= 0 {
			k = ceilRat(m)
		} else {
			k = floorRat(m)
		}
		r = new(big.Rat).SetFrac(k, big.NewInt(1000))
	}
	format := quantityDecimalSI
	if n.statefulSet {
		format = quantityFormat(text)
	}
	return canonicalQuantity(r, format)
}

// quantityFormatKind is resource.Format, as its suffix sets it.
type quantityFormatKind uint8

const (
	quantityDecimalSI quantityFormatKind = iota
	quantityBinarySI
	quantityDecimalExponent
)

// quantityFormat is the format ParseQuantity gives text (a quantity):
// by its suffix.
func quantityFormat(text string) quantityFormatKind {
	i := 0
	if i < len(text) && (text[i] == '+' || text[i] == '-') {
		i++
	}
	for i < len(text) && (isDigit(text[i]) || text[i] == '.') {
		i++
	}
	suffix := text[i:]
	if _, ok := binarySuffixes[suffix]; ok {
		return quantityBinarySI
	}
	if _, ok := decimalSuffixes[suffix]; ok {
		return quantityDecimalSI
	}
	return quantityDecimalExponent
}

// decimalSuffixText names the exponents of DecimalSI.
var decimalSuffixText = map[int]string{-9: "n", -6: "u", -3: "m", 0: "", 3: "k", 6: "M", 9: "G", 12: "T", 15: "P", 18: "E"}

// binarySuffixText names the powers of 1024 of BinarySI.
var binarySuffixText = map[int]string{0: "", 1: "Ki", 2: "Mi", 3: "Gi", 4: "Ti", 5: "Pi", 6: "Ei"}

// canonicalQuantity is resource.Quantity's CanonicalizeBytes of the value
// r (a multiple of 10⁻⁹) in format f: BinarySI only for a whole value of
// at least 1024 in magnitude, DecimalSI and DecimalExponent as a mantissa
// and a power of ten that is a multiple of 3. An exponent DecimalSI or
// BinarySI has no suffix for is written with none, as upstream does.
func canonicalQuantity(r *big.Rat, f quantityFormatKind) string {
	if r.Sign() == 0 {
		return "0"
	}
	if f == quantityBinarySI {
		abs := new(big.Rat).Abs(r)
		if abs.Cmp(big.NewRat(1024, 1)) < 0 || !r.IsInt() {
			f = quantityDecimalSI
		}
	}
	if f == quantityBinarySI {
		amount := new(big.Int).Set(r.Num())
		k := big.NewInt(1024)
		exp := 0
		for {
			q, m := new(big.Int).QuoRem(amount, k, new(big.Int))
			if m.Sign() != 0 {
				break
			}
			amount, exp = q, exp+1
		}
		return amount.String() + binarySuffixText[exp]
	}
	// r = amount·10^exp with amount an integer: start at nano units.
	amount := new(big.Int).Quo(new(big.Int).Mul(r.Num(), new(big.Int).Exp(big.NewInt(10), big.NewInt(9), nil)), r.Denom())
	exp := -9
	ten := big.NewInt(10)
	for {
		q, m := new(big.Int).QuoRem(amount, ten, new(big.Int))
		if m.Sign() != 0 {
			break
		}
		amount, exp = q, exp+1
	}
	for exp%3 != 0 {
		amount.Mul(amount, ten)
		exp--
	}
	if f == quantityDecimalExponent {
		if exp == 0 {
			return amount.String()
		}
		return amount.String() + "e" + strconv.Itoa(exp)
	}
	return amount.String() + decimalSuffixText[exp]
}

// The template's known fields.
var (
	templateSchema = &schema{fields: map[string]field{
		"metadata": {object, &schema{fields: map[string]field{
			"labels": {labels, nil}, "annotations": {stringMap, nil},
			"name": {scalar, nil}, "namespace": {scalar, nil}, "generateName": {scalar, nil},
		}}},
		"spec": {object, podSpecSchema},
	}}
	podSpecSchema = &schema{fields: map[string]field{
		"containers": {list, containerSchema}, "initContainers": {list, containerSchema},
		"ephemeralContainers": {list, containerSchema},
		"volumes":             {list, volumeSchema},
		"nodeSelector":        {stringMap, nil},
		"overhead":            {resourceList, nil},
		"resources": {ptrObject, &schema{fields: map[string]field{
			"limits": {resourceList, nil}, "requests": {resourceList, nil},
		}}},
		"securityContext": {ptrObject, nil}, "affinity": {ptrObject, nil}, "dnsConfig": {ptrObject, nil},
		"dnsPolicy": {scalar, nil}, "restartPolicy": {scalar, nil}, "schedulerName": {scalar, nil},
		"serviceAccountName": {scalar, nil}, "serviceAccount": {scalar, nil}, "nodeName": {scalar, nil},
		"hostname": {scalar, nil}, "subdomain": {scalar, nil}, "priorityClassName": {scalar, nil},
		"hostNetwork": {scalar, nil}, "hostPID": {scalar, nil}, "hostIPC": {scalar, nil},
		"terminationGracePeriodSeconds": {ptrScalar, nil}, "activeDeadlineSeconds": {ptrScalar, nil},
		"automountServiceAccountToken": {ptrScalar, nil}, "shareProcessNamespace": {ptrScalar, nil},
		"priority": {ptrScalar, nil}, "enableServiceLinks": {ptrScalar, nil},
		"preemptionPolicy": {ptrScalar, nil}, "runtimeClassName": {ptrScalar, nil},
		"setHostnameAsFQDN": {ptrScalar, nil}, "hostUsers": {ptrScalar, nil},
		"tolerations": {list, &schema{fields: map[string]field{
			"key": {scalar, nil}, "operator": {scalar, nil}, "value": {scalar, nil}, "effect": {scalar, nil},
			"tolerationSeconds": {ptrScalar, nil},
		}}},
	}, defaults: func(m map[string]any) {
		setDefault(m, "dnsPolicy", "ClusterFirst")
		setDefault(m, "restartPolicy", "Always")
		setDefault(m, "securityContext", map[string]any{})
		setDefault(m, "terminationGracePeriodSeconds", json.Number("30"))
		setDefault(m, "schedulerName", "default-scheduler")
	}}
	httpGetSchema = &schema{fields: map[string]field{
		"path": {scalar, nil}, "host": {scalar, nil}, "scheme": {scalar, nil},
	}, defaults: func(m map[string]any) {
		setDefault(m, "path", "/")
		setDefault(m, "scheme", "HTTP")
	}}
	handlerFields = map[string]field{
		"httpGet": {ptrObject, httpGetSchema},
		"grpc": {ptrObject, &schema{fields: map[string]field{"service": {ptrScalar, nil}},
			defaults: func(m map[string]any) { setDefault(m, "service", "") }}},
	}
	probeSchema = &schema{fields: withFields(handlerFields, map[string]field{
		"initialDelaySeconds": {scalar, nil}, "timeoutSeconds": {scalar, nil}, "periodSeconds": {scalar, nil},
		"successThreshold": {scalar, nil}, "failureThreshold": {scalar, nil},
		"terminationGracePeriodSeconds": {ptrScalar, nil},
	}), defaults: func(m map[string]any) {
		setDefault(m, "timeoutSeconds", json.Number("1"))
		setDefault(m, "periodSeconds", json.Number("10"))
		setDefault(m, "successThreshold", json.Number("1"))
		setDefault(m, "failureThreshold", json.Number("3"))
	}}
	fieldRefSchema = &schema{fields: map[string]field{"apiVersion": {scalar, nil}, "fieldPath": {scalar, nil}},
		defaults: func(m map[string]any) { setDefault(m, "apiVersion", "v1") }}
	resourceFieldRefSchema = &schema{fields: map[string]field{
		"containerName": {scalar, nil}, "resource": {scalar, nil}, "divisor": {quantity, nil},
	}}
	containerSchema = &schema{fields: map[string]field{
		"name": {scalar, nil}, "image": {scalar, nil}, "workingDir": {scalar, nil},
		"imagePullPolicy": {scalar, nil}, "terminationMessagePath": {scalar, nil}, "terminationMessagePolicy": {scalar, nil},
		"stdin": {scalar, nil}, "stdinOnce": {scalar, nil}, "tty": {scalar, nil},
		"command": {list, nil}, "args": {list, nil},
		"ports": {list, &schema{fields: map[string]field{
			"name": {scalar, nil}, "hostIP": {scalar, nil}, "containerPort": {scalar, nil}, "hostPort": {scalar, nil},
			"protocol": {scalar, nil},
		}, defaults: func(m map[string]any) { setDefault(m, "protocol", "TCP") }}},
		"env": {list, &schema{fields: map[string]field{
			"name": {scalar, nil}, "value": {scalar, nil},
			"valueFrom": {ptrObject, &schema{fields: map[string]field{
				"fieldRef":         {ptrObject, fieldRefSchema},
				"resourceFieldRef": {ptrObject, resourceFieldRefSchema},
				"fileKeyRef": {ptrObject, &schema{fields: map[string]field{"optional": {ptrScalar, nil}},
					defaults: func(m map[string]any) { setDefault(m, "optional", false) }}},
			}}},
		}}},
		"resources": {object, &schema{fields: map[string]field{
			"limits": {resourceList, nil}, "requests": {resourceList, nil},
		}}},
		"livenessProbe": {ptrObject, probeSchema}, "readinessProbe": {ptrObject, probeSchema},
		"startupProbe": {ptrObject, probeSchema},
		"lifecycle": {ptrObject, &schema{fields: map[string]field{
			"postStart": {ptrObject, &schema{fields: handlerFields}}, "preStop": {ptrObject, &schema{fields: handlerFields}},
		}}},
		"securityContext": {ptrObject, nil}, "restartPolicy": {ptrScalar, nil},
		"volumeMounts": {list, &schema{fields: map[string]field{
			"name": {scalar, nil}, "mountPath": {scalar, nil}, "subPath": {scalar, nil}, "subPathExpr": {scalar, nil},
			"readOnly": {scalar, nil},
		}}},
	}, defaults: func(m map[string]any) {
		image, _ := m["image"].(string)
		setDefault(m, "imagePullPolicy", defaultPullPolicy(image))
		setDefault(m, "terminationMessagePath", "/dev/termination-log")
		setDefault(m, "terminationMessagePolicy", "File")
	}}
	modeDefault   = func(m map[string]any) { setDefault(m, "defaultMode", json.Number("420")) }
	downwardItems = field{list, &schema{fields: map[string]field{
		"path": {scalar, nil}, "fieldRef": {ptrObject, fieldRefSchema}, "resourceFieldRef": {ptrObject, resourceFieldRefSchema},
	}}}
	volumeSchema = &schema{fields: map[string]field{
		"name": {scalar, nil},
		"hostPath": {ptrObject, &schema{fields: map[string]field{"path": {scalar, nil}, "type": {ptrScalar, nil}},
			defaults: func(m map[string]any) { setDefault(m, "type", "") }}},
		"secret": {ptrObject, &schema{fields: map[string]field{
			"secretName": {scalar, nil}, "defaultMode": {ptrScalar, nil}, "optional": {ptrScalar, nil},
		}, defaults: modeDefault}},
		"configMap": {ptrObject, &schema{fields: map[string]field{
			"name": {scalar, nil}, "defaultMode": {ptrScalar, nil}, "optional": {ptrScalar, nil},
		}, defaults: modeDefault}},
		"downwardAPI": {ptrObject, &schema{fields: map[string]field{
			"defaultMode": {ptrScalar, nil}, "items": downwardItems,
		}, defaults: modeDefault}},
		"projected": {ptrObject, &schema{fields: map[string]field{
			"defaultMode": {ptrScalar, nil},
			"sources": {list, &schema{fields: map[string]field{
				"downwardAPI": {ptrObject, &schema{fields: map[string]field{"items": downwardItems}}},
				"serviceAccountToken": {ptrObject, &schema{fields: map[string]field{
					"audience": {scalar, nil}, "path": {scalar, nil}, "expirationSeconds": {ptrScalar, nil},
				}, defaults: func(m map[string]any) { setDefault(m, "expirationSeconds", json.Number("3600")) }}},
			}}},
		}, defaults: modeDefault}},
		"emptyDir": {ptrObject, &schema{fields: map[string]field{
			"medium": {scalar, nil}, "sizeLimit": {ptrQuantity, nil},
		}}},
		"image": {ptrObject, &schema{fields: map[string]field{
			"reference": {scalar, nil}, "pullPolicy": {scalar, nil},
		}, defaults: func(m map[string]any) {
			ref, _ := m["reference"].(string)
			setDefault(m, "pullPolicy", defaultPullPolicy(ref))
		}}},
	}, defaults: func(m map[string]any) {
		// SetDefaults_Volume: a volume of no source is an emptyDir.
		for k := range m {
			if k != "name" {
				return
			}
		}
		m["emptyDir"] = map[string]any{}
	}}
)

func withFields(a, b map[string]field) map[string]field {
	out := make(map[string]field, len(a)+len(b))
	for k, v := range a {
		out[k] = v
	}
	for k, v := range b {
		out[k] = v
	}
	return out
}

func setDefault(m map[string]any, k string, v any) {
	if _, ok := m[k]; !ok {
		m[k] = v
	}
}

// defaultPullPolicy is SetDefaults_Container's imagePullPolicy for image:
// Always for the tag latest, written or implied (no tag and no digest),
// IfNotPresent otherwise, and for a reference that does not parse.
func defaultPullPolicy(image string) string {
	if imageTag(image) == "latest" {
		return "Always"
	}
	return "IfNotPresent"
}

// Docker references (github.com/distribution/reference's grammar).
var (
	imageReferenceRE = regexp.MustCompile(`^((?:(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9])(?:\.(?:[a-zA-Z0-9]|[a-zA-Z0-9][a-zA-Z0-9-]*[a-zA-Z0-9]))*|\[[a-fA-F0-9:]+\])(?::[0-9]+)?/)?` +
		`([a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*(?:/[a-z0-9]+(?:(?:[._]|__|-+)[a-z0-9]+)*)*)` +
		`(?::([\w][\w.-]{0,127}))?` +
		`(?:@([A-Za-z][A-Za-z0-9]*(?:[-_+.][A-Za-z][A-Za-z0-9]*)*:[0-9a-fA-F]{32,}))?$`)
	imageIdentifierRE = regexp.MustCompile(`^[a-f0-9]{64}$`)
	digestLengths     = map[string]int{"sha256": 64, "sha384": 96, "sha512": 128}
)

// imageTag is the tag parsers.ParseImageName finds in image: the tag
// written, "latest" for none and no digest, "" with a digest only or for
// a reference ParseNormalizedNamed refuses.
func imageTag(image string) string {
	if imageIdentifierRE.MatchString(image) {
		return ""
	}
	domain, rest, hasSlash := strings.Cut(image, "/")
	if !hasSlash || !(domain == "localhost" || strings.ContainsAny(domain, ".:") || strings.ToLower(domain) != domain) {
		rest = image
	}
	// The repository (the remainder, before its tag and digest) must be
	// lower case.
	repo := rest
	if i := strings.IndexByte(repo, '@'); i >= 0 {
		repo = repo[:i]
	}
	if i := strings.LastIndexByte(repo, ':'); i >= 0 {
		repo = repo[:i]
	}
	if strings.ToLower(repo) != repo {
		return ""
	}
	sub := imageReferenceRE.FindStringSubmatch(image)
	if sub == nil {
		return ""
	}
	name := strings.TrimSuffix(image, "@"+sub[4])
	name = strings.TrimSuffix(name, ":"+sub[3])
	if len(name) > 255 {
		return ""
	}
	if sub[4] != "" {
		alg, hex, _ := strings.Cut(sub[4], ":")
		if n, ok := digestLengths[alg]; !ok || len(hex) != n || strings.ToLower(hex) != hex {
			return ""
		}
	}
	switch {
	case sub[3] != "":
		return sub[3]
	case sub[4] != "":
		return ""
	}
	return "latest"
}
