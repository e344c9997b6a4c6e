package symmetry

import (
	"encoding/binary"
	"fmt"
)

// Orbit labels of a universe of more than 256 nodes (wideOrbits) follow a
// representative's encoding as runs, not two bytes a node: a canonical
// state's orbits are stretches of consecutive nodes, so its labels are
// runs of nodes labelled by themselves (an orbit of one) and runs of
// nodes labelled as the node before them (an orbit's later members).
// Each token is a uvarint:
//
//	count<<2 | 0   the next count nodes are each their own label
//	count<<2 | 1   the next count nodes each take the label of the node before
//	label<<2 | 2   the next node takes label (an earlier node's index)
//
// and the labels' length in bytes follows them, two bytes big-endian, so
// that SplitRepresentative finds where the state's encoding ends. Runs
// are maximal, so the bytes are a function of the labels.

// appendOrbitRuns appends labels (labels[i] ≤ i) as runs and their
// length.
func appendOrbitRuns(dst []byte, labels []uint16) []byte {
	at := len(dst)
	for i := 0; i < len(labels); {
		j := i
		switch {
		case int(labels[i]) == i:
			for j < len(labels) && int(labels[j]) == j {
				j++
			}
			dst = binary.AppendUvarint(dst, uint64(j-i)<<2)
		case i > 0 && labels[i] == labels[i-1]:
			for j < len(labels) && int(labels[j]) != j && labels[j] == labels[j-1] {
				j++
			}
			dst = binary.AppendUvarint(dst, uint64(j-i)<<2|1)
		default:
			dst = binary.AppendUvarint(dst, uint64(labels[i])<<2|2)
			j = i + 1
		}
		i = j
	}
	return binary.BigEndian.AppendUint16(dst, uint16(len(dst)-at))
}

// splitOrbitRuns reads the labels of n nodes at the end of enc into dst
// and returns the encoding before them.
func splitOrbitRuns(enc []byte, n int, dst []int) ([]byte, error) {
	if len(enc) < 2 {
		return nil, fmt.Errorf("symmetry: a representative's encoding of %d bytes has no orbits", len(enc))
	}
	size := int(binary.BigEndian.Uint16(enc[len(enc)-2:]))
	if size > len(enc)-2 {
		return nil, fmt.Errorf("symmetry: orbits of %d bytes in a representative's encoding of %d", size, len(enc))
	}
	state, runs := enc[:len(enc)-2-size], enc[len(enc)-2-size:len(enc)-2]
	for i := 0; i < n; {
		x, k := binary.Uvarint(runs)
		if k <= 0 {
			return nil, fmt.Errorf("symmetry: node %d's orbit is not encoded", i)
		}
		runs = runs[k:]
		switch x & 3 {
		case 0, 1:
			count := x >> 2
			if count == 0 || count > uint64(n-i) || x&3 == 1 && i == 0 {
				return nil, fmt.Errorf("symmetry: a run of %d orbit labels at node %d of %d", count, i, n)
			}
			for range count {
				if x&3 == 0 {
					dst[i] = i
				} else {
					dst[i] = dst[i-1]
				}
				i++
			}
		case 2:
			l := x >> 2
			if l > uint64(i) {
				return nil, fmt.Errorf("symmetry: node %d's orbit label %d is not the index of a node before it", i, l)
			}
			dst[i] = int(l)
			i++
		default:
			return nil, fmt.Errorf("symmetry: orbit token %#x", x)
		}
	}
	if len(runs) != 0 {
		return nil, fmt.Errorf("symmetry: %d bytes after the orbits of %d nodes", len(runs), n)
	}
	return state, nil
}
