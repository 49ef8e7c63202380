package rules

// Count is what a finished position holds for each side once dead stones are off.
type Count struct {
	Stones    [3]int // live stones on the board, by colour
	Territory [3]int // empty points in regions that touch only that colour
	Neutral   int    // empty points in regions that touch both colours, or neither
	Removed   [3]int // dead stones taken off, by their colour
}

// CountArea removes the dead stones (each point stands for its whole chain)
// from a copy of the position and counts stones and surrounded empty points.
func (b *Board) CountArea(dead []Point) Count {
	color := make([]Color, len(b.color))
	copy(color, b.color)
	var cnt Count
	for _, p := range dead {
		// the copy's colour: a chain already taken off is not walked again
		if c := color[p]; c == Black || c == White {
			for _, s := range b.Chain(p) {
				if color[s] == c {
					color[s] = Empty
					cnt.Removed[c]++
				}
			}
		}
	}
	seen := make([]bool, len(color))
	var stack []Point
	b.Points(func(p Point) {
		switch color[p] {
		case Black, White:
			cnt.Stones[color[p]]++
			return
		}
		if seen[p] {
			return
		}
		touches := [3]bool{}
		size := 0
		stack = append(stack[:0], p)
		seen[p] = true
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			size++
			for _, n := range b.neighbours(q) {
				switch color[n] {
				case Empty:
					if !seen[n] {
						seen[n] = true
						stack = append(stack, n)
					}
				case Black, White:
					touches[color[n]] = true
				}
			}
		}
		switch {
		case touches[Black] && !touches[White]:
			cnt.Territory[Black] += size
		case touches[White] && !touches[Black]:
			cnt.Territory[White] += size
		default:
			cnt.Neutral += size
		}
	})
	return cnt
}

// Unsettled returns the stones of every chain that is not unconditionally
// alive by Benson's algorithm: the count of such a position needs the
// players' agreement on what is dead.
func (b *Board) Unsettled() []Point {
	b.settle()
	alive := make([]bool, len(b.color))
	for _, c := range []Color{Black, White} {
		for _, hd := range b.bensonAlive(c) {
			for _, s := range b.Chain(hd) {
				alive[s] = true
			}
		}
	}
	var out []Point
	b.Points(func(p Point) {
		if c := b.color[p]; (c == Black || c == White) && !alive[p] {
			out = append(out, p)
		}
	})
	return out
}

// bensonAlive returns the heads of c's unconditionally alive chains.
func (b *Board) bensonAlive(c Color) []Point {
	// Regions: maximal connected sets of points that are not c.
	region := make([]int, len(b.color))
	for i := range region {
		region[i] = -1
	}
	type reg struct {
		empties []Point
		chains  map[Point]bool // heads of c-chains next to the region
	}
	var regions []*reg
	var stack []Point
	b.Points(func(p Point) {
		if b.color[p] == c || region[p] >= 0 {
			return
		}
		r := &reg{chains: map[Point]bool{}}
		id := len(regions)
		regions = append(regions, r)
		region[p] = id
		stack = append(stack[:0], p)
		for len(stack) > 0 {
			q := stack[len(stack)-1]
			stack = stack[:len(stack)-1]
			if b.color[q] == Empty {
				r.empties = append(r.empties, q)
			}
			for _, n := range b.neighbours(q) {
				switch col := b.color[n]; {
				case col == c:
					r.chains[b.head[n]] = true
				case col != edge && region[n] < 0:
					region[n] = id
					stack = append(stack, n)
				}
			}
		}
	})
	// vital[r][x]: every empty point of region r is a liberty of chain x.
	vital := make([]map[Point]bool, len(regions))
	for i, r := range regions {
		vital[i] = map[Point]bool{}
		for x := range r.chains {
			ok := true
			for _, e := range r.empties {
				adj := false
				for _, n := range b.neighbours(e) {
					adj = adj || (b.color[n] == c && b.head[n] == x)
				}
				if !adj {
					ok = false
					break
				}
			}
			if ok {
				vital[i][x] = true
			}
		}
	}
	chains := map[Point]bool{}
	b.Points(func(p Point) {
		if b.color[p] == c {
			chains[b.head[p]] = true
		}
	})
	liveRegion := make([]bool, len(regions))
	for i := range liveRegion {
		liveRegion[i] = true
	}
	for changed := true; changed; {
		changed = false
		for x := range chains {
			n := 0
			for i := range regions {
				if liveRegion[i] && vital[i][x] {
					n++
				}
			}
			if n < 2 {
				delete(chains, x)
				changed = true
			}
		}
		for i, r := range regions {
			if !liveRegion[i] {
				continue
			}
			for x := range r.chains {
				if !chains[x] {
					liveRegion[i] = false
					changed = true
					break
				}
			}
		}
	}
	var out []Point
	for x := range chains {
		out = append(out, x)
	}
	return out
}
