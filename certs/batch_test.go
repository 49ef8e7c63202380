package certs

import (
	"testing"
)

func TestParseBatch(t *testing.T) {
	text := "\ufeff证书编号,姓名,学校\r\n110260001,王五,北大\r\n\r\n１１０２６０００２\t李四\n 000-27-0001 ,  张 三 \nnonsense\n"
	got := ParseBatch(text)
	want := []BatchRow{{"110260001", "王五"}, {"１１０２６０００２", "李四"}, {"000-27-0001", "张 三"}, {"nonsense", ""}}
	if len(got) != len(want) {
		t.Fatalf("rows = %+v, want %+v", got, want)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("row %d = %+v, want %+v", i, got[i], want[i])
		}
	}
}

func FuzzParseBatch(f *testing.F) {
	f.Add("110260001,王五\n")
	f.Add("证书编号\t姓名\n１１０２６０００１\t李四")
	f.Fuzz(func(t *testing.T, s string) {
		for _, r := range ParseBatch(s) {
			if r.Number == "" {
				t.Fatalf("a row without a number from %q", s)
			}
		}
	})
}
