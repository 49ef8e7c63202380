package ratings

// deltas sums the rating changes of one batch, so that every game of the
// batch is rated from the ratings before it.
type deltas struct {
	start   []float64
	sum     []float64
	in      []bool
	touched []int32
}

func newDeltas(players int) deltas {
	return deltas{start: make([]float64, players), sum: make([]float64, players), in: make([]bool, players)}
}

func (d *deltas) add(p int32, start, delta float64) {
	if !d.in[p] {
		d.in[p] = true
		d.start[p] = start
		d.touched = append(d.touched, p)
	}
	d.sum[p] += delta
}

// apply writes start + sum into r, floored, and marks the players seen.
func (d *deltas) apply(r []float64, seen []bool, floor float64) {
	for _, p := range d.touched {
		r[p] = max(d.start[p]+d.sum[p], floor)
		seen[p] = true
		d.sum[p], d.in[p] = 0, false
	}
	d.touched = d.touched[:0]
}
