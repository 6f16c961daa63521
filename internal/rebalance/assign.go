package rebalance

import "sort"

// Assignors work on member indices (ws, sorted by name) and return an owner per item
// (-1 = unassigned) in out, which must have len(s.items). Only existing items are assigned.

func (s *sim) liveItems(g int) []int32 {
	var out []int32
	for _, it := range s.groups[g].items {
		if x := &s.items[it]; x.exists && !x.deleted {
			out = append(out, it)
		}
	}
	return out
}

func fill(out []int32, v int32) {
	for i := range out {
		out[i] = v
	}
}

// assignRange: per topic, contiguous ranges; the first P mod N members get one extra.
func (s *sim) assignRange(ws []int32, out []int32) {
	fill(out, -1)
	n := len(ws)
	if n == 0 {
		return
	}
	for g := range s.groups {
		parts := s.liveItems(g)
		q, extra := len(parts)/n, len(parts)%n
		p := 0
		for i, m := range ws {
			c := q
			if i < extra {
				c++
			}
			for k := 0; k < c; k++ {
				out[parts[p]] = m
				p++
			}
		}
	}
}

// assignRoundRobin deals all partitions, topic by topic, over the members in order.
func (s *sim) assignRoundRobin(ws []int32, out []int32) {
	fill(out, -1)
	if len(ws) == 0 {
		return
	}
	k := 0
	for g := range s.groups {
		for _, it := range s.liveItems(g) {
			out[it] = ws[k%len(ws)]
			k++
		}
	}
}

// assignSticky balances counts (within one) and keeps as many previous owners (prev) as it can.
// It balances each topic on its own, handing each topic's extra partitions to the members with
// the fewest partitions so far, so per-topic and total counts both stay within one.
func (s *sim) assignSticky(ws []int32, prev []int32, out []int32) {
	fill(out, -1)
	n := len(ws)
	if n == 0 {
		return
	}
	pos := make(map[int32]int, n)
	for i, m := range ws {
		pos[m] = i
	}
	total := make([]int, n)
	owned := make([]int, n)
	target := make([]int, n)
	kept := make([]int, n)
	order := make([]int, n)
	for g := range s.groups {
		parts := s.liveItems(g)
		for i := range owned {
			owned[i], kept[i], order[i] = 0, 0, i
		}
		for _, it := range parts {
			if p, ok := pos[prev[it]]; ok && prev[it] >= 0 {
				owned[p]++
			}
		}
		q, extra := len(parts)/n, len(parts)%n
		sort.SliceStable(order, func(a, b int) bool {
			x, y := order[a], order[b]
			if total[x] != total[y] {
				return total[x] < total[y]
			}
			return owned[x] > owned[y]
		})
		for r, i := range order {
			target[i] = q
			if r < extra {
				target[i]++
			}
		}
		var free []int32
		for _, it := range parts {
			if p, ok := pos[prev[it]]; ok && prev[it] >= 0 && kept[p] < target[p] {
				out[it] = ws[p]
				kept[p]++
				continue
			}
			free = append(free, it)
		}
		i := 0
		for _, it := range free {
			for kept[i%n] >= target[i%n] {
				i++
			}
			out[it] = ws[i%n]
			kept[i%n]++
		}
		for i := range total {
			total[i] += target[i]
		}
	}
}

// assignConnectEager is Connect's V0 assignment: connectors round-robin over the sorted workers,
// then tasks continuing round-robin.
func (s *sim) assignConnectEager(ws []int32, out []int32) {
	fill(out, -1)
	if len(ws) == 0 {
		return
	}
	k := 0
	for _, conn := range []bool{true, false} {
		for g := range s.groups {
			for _, it := range s.liveItems(g) {
				if (s.items[it].part < 0) == conn {
					out[it] = ws[k%len(ws)]
					k++
				}
			}
		}
	}
}
