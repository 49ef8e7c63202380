package ratings

import "testing"

func TestStonesToBlack(t *testing.T) {
	tests := []struct {
		name     string
		handicap int
		komi     float64
		hasKomi  bool
		want     float64
	}{
		{"no-komi game is half a stone", 0, 0.5, true, 0.5},
		{"AGA no-komi handicap 1", 1, 0, true, 0.5},
		{"two stones, komi 0.5", 2, 0.5, true, 1.5},
		{"five stones, komi 0.5 (EGD 100(h-0.5))", 5, 0.5, true, 4.5},
		{"nine stones, komi 0.5", 9, 0.5, true, 8.5},
		{"even, komi 7.5: even", 0, 7.5, true, 0},
		{"even, AGA komi 7 (= 7.5)", 0, 7, true, 0},
		{"even, komi 6.5", 0, 6.5, true, 0.5 - 6.0/14},
		{"reverse komi helps black", 0, -7.5, true, 1},
		{"handicap with komi", 3, 7.5, true, 2.5 - 0.5},
		{"missing komi, even", 0, 0, false, 0.5 - 6.0/14},
		{"missing komi, handicap", 4, 0, false, 3.5},
		{"absurd reverse komi is capped", 9, -100, true, 9.5},
		{"absurd komi is capped", 0, 500, true, -9.5},
	}
	for _, tt := range tests {
		if got := StonesToBlack(tt.handicap, tt.komi, tt.hasKomi); !near(got, tt.want, 1e-12) {
			t.Errorf("%s: StonesToBlack(%d, %v, %v) = %v, want %v", tt.name, tt.handicap, tt.komi, tt.hasKomi, got, tt.want)
		}
	}
}

// The EGD's example: 1850 with 5 stones (komi 0.5) counts as 2300.
func TestAdvantageMatchesEGD(t *testing.T) {
	g := Game{Handicap: 5, Komi: 0.5, HasKomi: true}
	if got := 1850 + advantage(&g); got != 2300 {
		t.Fatalf("1850 with 5 stones counts as %v, want 2300", got)
	}
}

func near(a, b, eps float64) bool { return a-b <= eps && b-a <= eps }
