package scaling

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
)

// ListHash fingerprints a setup list (its length and every setup in
// order), so that Merge can refuse shards cut from different lists — a
// different cluster, scale, bound or enumeration option.
func ListHash(setups []Setup) string {
	h := sha256.New()
	h.Write([]byte("kivi-scaling-setups/1 " + strconv.Itoa(len(setups)) + "\n"))
	for _, s := range setups {
		h.Write([]byte(s.String() + "\n"))
	}
	return "sha256:" + hex.EncodeToString(h.Sum(nil))
}
