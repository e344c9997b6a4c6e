package manifest

import (
	"encoding/binary"
	"fmt"
	"unicode/utf16"
)

// utf16Warning warns about a UTF-16 file (Windows PowerShell 5's `>`
// writes one, e.g. of `helm template`) holding several documents.
// kubectl's reader (apimachinery's YAMLOrJSONDecoder) splits documents
// at "---" lines of bytes, which UTF-16 text has none of, and its YAML
// parser then decodes the first document only; this reader does the
// same, so the others are neither applied by kubectl nor verified here,
// and saying nothing would hide them.
func utf16Warning(file string, data []byte) (Warning, bool) {
	text, ok := utf16Text(data)
	if !ok || len(data) > maxJSONBytes {
		return Warning{}, false
	}
	parts, bad := splitDocuments([]byte(text))
	if bad > 0 {
		return Warning{}, false
	}
	docs := 0
	for _, p := range parts {
		if len(p) > maxDocumentBytes {
			docs++
		} else if js, err := toJSON(p); err != nil || !isNull(js) {
			docs++
		}
	}
	if docs < 2 {
		return Warning{}, false
	}
	others := "the other one is"
	if docs > 2 {
		others = fmt.Sprintf("the other %d are", docs-1)
	}
	return Warning{File: file, Msg: fmt.Sprintf("the file is UTF-16 and holds %d documents: kubectl reads its first document only (it finds no \"---\" separator in UTF-16 text), and so does this reader, so %s neither applied nor verified (accepted: UTF-8, e.g. PowerShell's Out-File -Encoding utf8)", docs, others)}, true
}

// utf16Text decodes data that starts with a UTF-16 byte-order mark.
func utf16Text(data []byte) (string, bool) {
	if len(data) < 2 {
		return "", false
	}
	var order binary.ByteOrder
	switch {
	case data[0] == 0xFF && data[1] == 0xFE:
		order = binary.LittleEndian
	case data[0] == 0xFE && data[1] == 0xFF:
		order = binary.BigEndian
	default:
		return "", false
	}
	units := make([]uint16, 0, len(data)/2)
	for i := 2; i+1 < len(data); i += 2 {
		units = append(units, order.Uint16(data[i:]))
	}
	return string(utf16.Decode(units)), true
}
