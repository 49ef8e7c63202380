package registry

import (
	"fmt"
	"strconv"
	"strings"

	"golang.org/x/text/width"
)

// Rank is an amateur rank. Kyu ranks are negative (-30 … -1 for 30 … 1 kyu),
// dan ranks positive (1 … 7, 8 honorary); 0 means no rank. Higher is stronger.
type Rank int

const (
	NoRank       Rank = 0
	LowestKyu    Rank = -30
	HighestDan   Rank = 7
	HonoraryDan8 Rank = 8
)

// ParseRank reads "30k" … "1k", "1d" … "8d" (also upper case, "级", "段",
// and full-width digits and letters as input methods type them: "５段"), or
// "" for none.
func ParseRank(s string) (Rank, error) {
	t := strings.ToLower(strings.TrimSpace(width.Narrow.String(s)))
	if t == "" {
		return NoRank, nil
	}
	var num string
	var kyu bool
	switch {
	case strings.HasSuffix(t, "kyu"), strings.HasSuffix(t, "k"), strings.HasSuffix(t, "级"):
		kyu = true
		num = strings.TrimRight(strings.TrimSuffix(t, "级"), "kyu")
	case strings.HasSuffix(t, "dan"), strings.HasSuffix(t, "d"), strings.HasSuffix(t, "段"):
		num = strings.TrimRight(strings.TrimSuffix(t, "段"), "dan")
	default:
		return NoRank, fmt.Errorf("rank %q: want a number followed by k (kyu) or d (dan), e.g. 3k or 5d", s)
	}
	n, err := strconv.Atoi(strings.TrimSpace(num))
	if err != nil {
		return NoRank, fmt.Errorf("rank %q: want a number followed by k or d", s)
	}
	if kyu {
		if n < 1 || n > 30 {
			return NoRank, fmt.Errorf("rank %q: kyu runs from 30k to 1k", s)
		}
		return Rank(-n), nil
	}
	if n < 1 || n > 8 {
		return NoRank, fmt.Errorf("rank %q: amateur dan runs from 1d to 7d (8d is honorary)", s)
	}
	return Rank(n), nil
}

// String gives the short form: "3k", "5d", or "" for none.
func (r Rank) String() string {
	switch {
	case r < 0:
		return strconv.Itoa(int(-r)) + "k"
	case r > 0:
		return strconv.Itoa(int(r)) + "d"
	}
	return ""
}

// Chinese gives the Chinese form: "3级", "5段".
func (r Rank) Chinese() string {
	switch {
	case r < 0:
		return strconv.Itoa(int(-r)) + "级"
	case r == HonoraryDan8:
		return "8段（荣誉）"
	case r > 0:
		return strconv.Itoa(int(r)) + "段"
	}
	return ""
}

// English gives the long English form: "3 kyu", "5 dan".
func (r Rank) English() string {
	switch {
	case r < 0:
		return strconv.Itoa(int(-r)) + " kyu"
	case r == HonoraryDan8:
		return "8 dan (honorary)"
	case r > 0:
		return strconv.Itoa(int(r)) + " dan"
	}
	return ""
}

// Outranks reports whether r is a higher rank than o; any rank outranks none.
func (r Rank) Outranks(o Rank) bool {
	if r == NoRank {
		return false
	}
	return o == NoRank || r > o
}
