package rules

// zobrist holds one random 64-bit key per point and colour, plus one for
// "white to move" (situational superko). The keys come from a fixed seed so
// hashes are the same in every run.
type zobrist struct {
	stone       [3][]uint64
	whiteToMove uint64
}

func newZobrist(n int) *zobrist {
	z := &zobrist{}
	s := uint64(0x9E3779B97F4A7C15)
	next := func() uint64 { // splitmix64
		s += 0x9E3779B97F4A7C15
		x := s
		x = (x ^ (x >> 30)) * 0xBF58476D1CE4E5B9
		x = (x ^ (x >> 27)) * 0x94D049BB133111EB
		return x ^ (x >> 31)
	}
	for c := Black; c <= White; c++ {
		z.stone[c] = make([]uint64, n)
		for i := range z.stone[c] {
			z.stone[c][i] = next()
		}
	}
	z.whiteToMove = next()
	return z
}

// hashSet is an open-addressing set of position keys: it grows by doubling
// and otherwise allocates nothing, so replaying a move costs no allocation.
type hashSet struct {
	slots   []uint64
	n       int
	hasZero bool
}

func (s *hashSet) init(capacity int) {
	size := 16
	for size < 2*capacity {
		size *= 2
	}
	s.slots = make([]uint64, size)
}

func (s *hashSet) clear() {
	clear(s.slots)
	s.n, s.hasZero = 0, false
}

func (s *hashSet) has(k uint64) bool {
	if k == 0 {
		return s.hasZero
	}
	mask := uint64(len(s.slots) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return true
		case 0:
			return false
		}
	}
}

func (s *hashSet) add(k uint64) {
	if k == 0 {
		s.hasZero = true
		return
	}
	if 2*(s.n+1) > len(s.slots) {
		old := s.slots
		s.slots = make([]uint64, 2*len(old))
		s.n = 0
		for _, v := range old {
			if v != 0 {
				s.insert(v)
			}
		}
	}
	s.insert(k)
}

func (s *hashSet) insert(k uint64) {
	mask := uint64(len(s.slots) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return
		case 0:
			s.slots[i] = k
			s.n++
			return
		}
	}
}

// addNew adds k unless it is there already, and reports whether it added
// it: one probe where has and then add take two.
func (s *hashSet) addNew(k uint64) bool {
	if k == 0 {
		if s.hasZero {
			return false
		}
		s.hasZero = true
		return true
	}
	if 2*(s.n+1) > len(s.slots) {
		if s.has(k) {
			return false
		}
		s.add(k)
		return true
	}
	mask := uint64(len(s.slots) - 1)
	for i := k & mask; ; i = (i + 1) & mask {
		switch s.slots[i] {
		case k:
			return false
		case 0:
			s.slots[i] = k
			s.n++
			return true
		}
	}
}
