package events

import "github.com/kivi-go/kivi/model"

// kubectl drain lists a node's pods once, when it starts
// (GetPodsForDeletion), evicts those, retrying each refused one, and waits
// for those to be deleted (waitForDelete, by name and UID); a pod bound
// to the node later is not its business. Only pods that tolerate the
// cordon's taint or are pinned to the node with nodeName can be bound to a
// cordoned node (model.DrainArrivals), so for every other template the
// pods on the node are exactly the listed ones and the drain looks at
// them. For each template that can arrive, the drain's memory counts the
// listed pods still to evict: after the first round those are the pods
// whose eviction a budget refused, all Running, and a later round evicts
// that many of the template's Running pods on the node (which ones is a
// choice, identical pods being one). A listed pod and one that arrived
// later are told apart only by their state, so when both are Running and
// differ (another usage, another ReplicaSet) the model may take the new
// one; and a listed pod deleted by someone else leaves its count until
// fewer Running pods of the template remain than it says.

// listing is where drain event e keeps its counts of listed pods: per
// drained node (position k), the templates that can arrive and the
// memory index of the first one's count.
type listing struct {
	templates []int
	at        int
}

// listingOf returns the listing of the event's k-th node.
func (d Drain) listingOf(u *model.Universe, k int) listing {
	e := &u.Events[d.event]
	at := 1 + 2*len(e.Nodes)
	for j := range k {
		at += len(model.DrainArrivals(u, e, j))
	}
	return listing{templates: model.DrainArrivals(u, e, k), at: at}
}

// arrives reports whether template t can arrive on the node, and the
// memory index of its count.
func (l listing) arrives(t int) (int, bool) {
	for i, x := range l.templates {
		if x == t {
			return l.at + i, true
		}
	}
	return 0, false
}

// listed returns the pods of the event's k-th node the drain still has to
// evict, in slot order: every active pod of a template that cannot
// arrive, and for one that can, as many of its Running pods on the node
// as its count says (all of them when there is no choice, else the
// lowest slots of each kind; evictRound chooses). first is the listing
// itself: every active pod.
func (d Drain) listed(u *model.Universe, s *model.State, k int, first bool) []int {
	n := u.Events[d.event].Nodes[k]
	l := d.listingOf(u, k)
	mem := vars(u, s, d.event)
	var out []int
	for p := range s.Pods {
		pod := &s.Pods[p]
		if pod.NodeOf() != n || !pod.Active() {
			continue
		}
		i, ok := l.arrives(int(pod.Template))
		if first || !ok {
			out = append(out, p)
			continue
		}
		if pod.Phase == model.Running && mem[i] > 0 {
			out = append(out, p)
		}
	}
	return out
}

// chooseListed narrows pods (listed's, not the first listing) to the
// ones the drain still has to evict: for a template that can arrive, its
// count's worth of its Running pods, which ones a choice over their
// contents.
func (d Drain) chooseListed(tx *model.Tx, s *model.State, k int, pods []int) []int {
	u := tx.U
	l := d.listingOf(u, k)
	if len(l.templates) == 0 {
		return pods
	}
	mem := vars(u, s, d.event)
	var out []int
	byTemplate := map[int][]int{}
	for _, p := range pods {
		t := int(s.Pods[p].Template)
		if _, ok := l.arrives(t); ok {
			byTemplate[t] = append(byTemplate[t], p)
			continue
		}
		out = append(out, p)
	}
	for _, t := range l.templates {
		ps := byTemplate[t]
		i, _ := l.arrives(t)
		if c := int(mem[i]); c < len(ps) {
			ps = tx.ChoosePods(s, ps, c)
		}
		out = append(out, ps...)
	}
	return out
}

// recordListing sets the counts of the event's k-th node after a round:
// per template that can arrive, the pods of tried that are still active
// (their evictions were refused).
func (d Drain) recordListing(u *model.Universe, s *model.State, k int, tried []int) {
	l := d.listingOf(u, k)
	if len(l.templates) == 0 {
		return
	}
	mem := vars(u, s, d.event)
	for i := range l.templates {
		mem[l.at+i] = 0
	}
	for _, p := range tried {
		if i, ok := l.arrives(int(s.Pods[p].Template)); ok && s.Pods[p].Active() {
			mem[i]++
		}
	}
}
