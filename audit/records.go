package audit

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"math/bits"
	"slices"

	"github.com/dankyu/dankyu/tournaments"
)

// Game records are compared as the sequence of points their main lines
// play, colours left out (a colour-swapped copy plays the same points), in
// each of the board's eight symmetries (a rotated or mirrored copy is the
// same game). Two records are the same when one turned is the other; a
// near copy when, turned, it is within a few edits (moves changed, added
// or removed) of the other. Near copies are found without comparing every
// pair: each record's k-move shingles are summarised by a MinHash
// signature, whose bands are the keys of buckets (locality-sensitive
// hashing); only records sharing a bucket are compared, by an edit
// distance bounded by the edits allowed.
const (
	shingleLen  = 5  // moves per shingle
	minhashes   = 16 // signature length
	bandRows    = 2  // rows per band: 8 bands
	bucketLimit = 64 // records compared per bucket (a bucket of many identical records needs no more)
)

// NearCopyEdits is how many edits a near copy of a record of n moves may
// have: a tenth of the moves, at least 4.
func NearCopyEdits(n int) int { return max(4, n/10) }

// symmetries returns the eight maps of the points of a board of size n
// (identity first).
func symmetries(n int) [8][]int16 {
	var out [8][]int16
	for s := range 8 {
		m := make([]int16, n*n)
		for y := range n {
			for x := range n {
				a, b := x, y
				if s&1 != 0 {
					a = n - 1 - a
				}
				if s&2 != 0 {
					b = n - 1 - b
				}
				if s&4 != 0 {
					a, b = b, a
				}
				m[y*n+x] = int16(b*n + a)
			}
		}
		out[s] = m
	}
	return out
}

// turn is pts under the symmetry m (a pass stays a pass).
func turn(dst, pts, m []int16) []int16 {
	dst = dst[:0]
	for _, p := range pts {
		if p >= 0 && int(p) < len(m) {
			p = m[p]
		}
		dst = append(dst, p)
	}
	return dst
}

var symmetryWords = [8]string{"", "mirrored", "mirrored", "turned 180°", "mirrored", "turned 90°", "turned 90°", "mirrored"}

// recordSeen is one record of the period in the comparison.
type recordSeen struct {
	ref    tournaments.RecordMoves
	points []int16 // as recorded
}

// copyMatch is a record found to repeat an earlier one.
type copyMatch struct {
	later, earlier tournaments.RecordMoves
	edits          int
	symmetry       int
}

// matchRecords finds, among records (in the order given: each is compared
// with the ones before it), the ones that repeat an earlier record exactly
// up to symmetry and colour (edits 0) or nearly (edits up to
// NearCopyEdits). Records shorter than minMoves are left out.
func matchRecords(records []tournaments.RecordMoves, minMoves int) []copyMatch {
	var (
		out     []copyMatch
		seen    []recordSeen
		exact   = map[[32]byte]int{}            // canonical digest → first record
		buckets = map[uint64][]int32{}          // band key → records
		syms    = map[int][8][]int16{}          // board size → its symmetries
		turned  [8][]int16                      // scratch: the record turned
		sig     [minhashes]uint64               // scratch
		cand    = map[int32]int{}               // scratch: candidate → symmetry
		dp      = make([]int, 0, 512)           // scratch of the edit distance
		keys    [8][minhashes / bandRows]uint64 // a record's band keys per symmetry
	)
	for _, r := range records {
		if len(r.Points) < minMoves {
			continue
		}
		m, ok := syms[r.Size]
		if !ok {
			m = symmetries(r.Size)
			syms[r.Size] = m
		}
		for s := range 8 {
			turned[s] = turn(turned[s], r.Points, m[s])
		}
		// exact: the least of the eight turned sequences, digested
		best := 0
		for s := 1; s < 8; s++ {
			if slices.Compare(turned[s], turned[best]) < 0 {
				best = s
			}
		}
		digest := digestPoints(r.Size, turned[best])
		idx := int32(len(seen))
		if first, ok := exact[digest]; ok {
			e := seen[first]
			out = append(out, copyMatch{later: r, earlier: e.ref, symmetry: symmetryBetween(m, r.Points, e.points)})
			seen = append(seen, recordSeen{ref: r, points: r.Points})
			continue // its buckets are its twin's
		}
		exact[digest] = int(idx)
		// near: the candidates sharing a band with the record turned any way
		clear(cand)
		for s := range 8 {
			signature(&sig, turned[s], r.Size)
			for b := range minhashes / bandRows {
				k := bandKey(b, sig[b*bandRows:(b+1)*bandRows])
				keys[s][b] = k
				bucket := buckets[k]
				if len(bucket) > bucketLimit {
					bucket = bucket[len(bucket)-bucketLimit:]
				}
				for _, c := range bucket {
					if _, ok := cand[c]; !ok {
						cand[c] = s
					}
				}
			}
		}
		bestEdits, bestOf, bestSym := -1, int32(-1), 0
		order := make([]int32, 0, len(cand))
		for c := range cand {
			order = append(order, c)
		}
		slices.Sort(order)
		for _, c := range order {
			s := cand[c]
			e := seen[c]
			limit := NearCopyEdits(min(len(e.points), len(r.Points)))
			var d int
			d, dp = boundedEdits(turned[s], e.points, limit, dp)
			if d >= 0 && (bestEdits < 0 || d < bestEdits) {
				bestEdits, bestOf, bestSym = d, c, s
			}
		}
		if bestOf >= 0 {
			out = append(out, copyMatch{later: r, earlier: seen[bestOf].ref, edits: max(bestEdits, 1), symmetry: bestSym})
		}
		for b := range minhashes / bandRows {
			buckets[keys[0][b]] = append(buckets[keys[0][b]], idx)
		}
		seen = append(seen, recordSeen{ref: r, points: r.Points})
	}
	return out
}

// symmetryBetween is a symmetry turning a into b (0 when none does).
func symmetryBetween(m [8][]int16, a, b []int16) int {
	var buf []int16
	for s := range 8 {
		buf = turn(buf, a, m[s])
		if slices.Equal(buf, b) {
			return s
		}
	}
	return 0
}

func digestPoints(size int, pts []int16) [32]byte {
	b := make([]byte, 2, 2+2*len(pts))
	binary.LittleEndian.PutUint16(b, uint16(size))
	for _, p := range pts {
		b = binary.LittleEndian.AppendUint16(b, uint16(p))
	}
	return sha256.Sum256(b)
}

// mix is a 64-bit hash step (splitmix64's finaliser).
func mix(x uint64) uint64 {
	x ^= x >> 30
	x *= 0xbf58476d1ce4e5b9
	x ^= x >> 27
	x *= 0x94d049bb133111eb
	x ^= x >> 31
	return x
}

// signature is the MinHash signature of the shingles of pts.
func signature(sig *[minhashes]uint64, pts []int16, size int) {
	for i := range sig {
		sig[i] = ^uint64(0)
	}
	if len(pts) < shingleLen {
		return
	}
	for i := 0; i+shingleLen <= len(pts); i++ {
		h := uint64(size) * 0xd6e8feb86659fd93
		for k, p := range pts[i : i+shingleLen] {
			h ^= bits.RotateLeft64(pointHash[int(p)+1], 11*k)
		}
		for j := range sig {
			v := (h ^ minhashSeeds[j]) * 0x9e3779b97f4a7c15
			v ^= v >> 29
			if v < sig[j] {
				sig[j] = v
			}
		}
	}
}

// pointHash is a random 64-bit word for each point (index 0: a pass).
var pointHash = func() (out [52*52 + 1]uint64) {
	for i := range out {
		out[i] = mix(uint64(i) + 0x2545f4914f6cdd1d)
	}
	return out
}()

// minhashSeeds are the signature's hash functions' seeds.
var minhashSeeds = func() (out [minhashes]uint64) {
	for j := range out {
		out[j] = mix(uint64(j) + 0x632be59bd9b4e019)
	}
	return out
}()

func bandKey(band int, rows []uint64) uint64 {
	h := mix(uint64(band) + 1)
	for _, r := range rows {
		h = mix(h ^ r)
	}
	return h
}

// boundedEdits is the edit distance (moves changed, added, removed)
// between a and b when it is at most limit, else -1: a band of width
// 2·limit+1 around the diagonal, O(limit·n).
func boundedEdits(a, b []int16, limit int, dp []int) (int, []int) {
	if d := len(a) - len(b); d > limit || -d > limit {
		return -1, dp
	}
	w := 2*limit + 1
	const far = 1 << 30
	need := 2 * w
	if cap(dp) < need {
		dp = make([]int, need)
	}
	prev, cur := dp[:w], dp[w:need]
	// prev[k] is row i-1, column j = (i-1) + k - limit
	for k := range w {
		j := k - limit
		if j >= 0 && j <= len(b) {
			prev[k] = j
		} else {
			prev[k] = far
		}
	}
	for i := 1; i <= len(a); i++ {
		best := far
		for k := range w {
			j := i + k - limit
			if j < 0 || j > len(b) {
				cur[k] = far
				continue
			}
			v := far
			if j == 0 {
				v = i
			} else {
				// substitution or match: row i-1, column j-1 → prev[k]
				sub := prev[k]
				if a[i-1] != b[j-1] {
					sub++
				}
				v = sub
				// insertion: row i, column j-1 → cur[k-1]
				if k > 0 && cur[k-1]+1 < v {
					v = cur[k-1] + 1
				}
			}
			// deletion: row i-1, column j → prev[k+1]
			if k+1 < w && prev[k+1]+1 < v {
				v = prev[k+1] + 1
			}
			cur[k] = v
			best = min(best, v)
		}
		if best > limit {
			return -1, dp
		}
		prev, cur = cur, prev
	}
	k := len(b) - len(a) + limit
	if d := prev[k]; d <= limit {
		return d, dp
	}
	return -1, dp
}

// copyNote is the drill-down's note of a match.
func copyNote(c copyMatch) string {
	how := "colours left out"
	if w := symmetryWords[c.symmetry]; w != "" {
		how = w + ", " + how
	}
	if c.edits == 0 {
		return fmt.Sprintf("%d moves, the same as %d/%d/%d (%s)", len(c.later.Points), c.earlier.Tournament, c.earlier.Round, c.earlier.Board, how)
	}
	return fmt.Sprintf("%d moves, %d edits from %d/%d/%d (%s)", len(c.later.Points), c.edits, c.earlier.Tournament, c.earlier.Round, c.earlier.Board, how)
}
