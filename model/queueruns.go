package model

import (
	"encoding/binary"
	"fmt"
)

// Queue runs. In a universe of more pod slots than MaxObjects, a queue's
// items are written as tokens that start with two little-endian bytes:
// an item below queueRun stands for itself; queueRun|x starts a run of
// ids in arithmetic progression from x, followed by the run's length
// minus two and its stride minus one, as uvarints. The encoder takes at
// each item the longest run whose stride is the step to the next item,
// when that step goes up, so equal queues encode equally; the reader
// accepts nothing else (a token never goes on with the stride of the run
// before it, and an item alone is never followed by a greater one). The
// queues of a large cluster are mostly such runs (the pods a rollout
// creates wait for the scheduler, then for their kubelets; in a
// canonical state the pods of n Deployments created in turn stand n
// slots apart), and item by item they were most of a state's bytes: 455
// + 45 pods waiting took 1 000 bytes of a 500-node state's 1 071.

// queueRun marks a run token; every id (a pod slot, a node or a
// deployment) is below it.
const queueRun = 0x8000

// maxQueueTokenBytes is the most bytes a token takes per item it stands
// for: a run of two whose stride (below queueRun) takes three uvarint
// bytes, six bytes in all.
const maxQueueTokenBytes = 3

// putQueueRuns writes items into b from n on as tokens and returns the
// new length; b has room for maxQueueTokenBytes per item.
func putQueueRuns(b []byte, n int, items []uint16) int {
	for i := 0; i < len(items); {
		if i+1 == len(items) || items[i+1] <= items[i] {
			binary.LittleEndian.PutUint16(b[n:], items[i])
			n += 2
			i++
			continue
		}
		d := items[i+1] - items[i]
		j := i + 2
		for j < len(items) && items[j] == items[j-1]+d {
			j++
		}
		binary.LittleEndian.PutUint16(b[n:], items[i]|queueRun)
		n += 2
		n += binary.PutUvarint(b[n:], uint64(j-i-2))
		n += binary.PutUvarint(b[n:], uint64(d-1))
		i = j
	}
	return n
}

// queueRuns reads count items written by putQueueRuns and appends them
// to items. Tokens putQueueRuns would not have written (a run that goes
// on from the one before, an item alone followed by a greater one) or
// that pass count are an error.
func (r *reader) queueRuns(items []uint16, count int) []uint16 {
	start := len(items)
	// next is the item that would have extended the last token (-1:
	// none); above, the smallest item that may follow a lone item.
	next, above := -1, -1
	for len(items)-start < count && r.err == nil {
		b := r.bytes(2)
		if len(b) < 2 {
			break
		}
		v := binary.LittleEndian.Uint16(b)
		x, k, d := int(v&^queueRun), 1, 0
		if v&queueRun != 0 {
			extra, stride := r.uvarint(), r.uvarint()
			if extra > uint64(count) || stride >= queueRun {
				r.err = fmt.Errorf("queue run of %d more items, stride %d: %w", extra, stride+1, ErrInvalid)
				break
			}
			k, d = int(extra)+2, int(stride)+1
		}
		if x == next || above >= 0 && x > above || len(items)-start+k > count || x+(k-1)*d >= queueRun {
			r.err = fmt.Errorf("queue token %#x of %d items: %w", v, k, ErrInvalid)
			break
		}
		for i := range k {
			items = append(items, uint16(x+i*d))
		}
		next, above = -1, -1
		if k > 1 {
			next = x + k*d
		} else {
			above = x
		}
	}
	if r.err == nil && len(items)-start != count {
		r.err = ErrInvalid
	}
	return items
}
