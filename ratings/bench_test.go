package ratings

import (
	"bytes"
	"encoding/csv"
	"errors"
	"io"
	"os"
	"testing"
	"time"
)

// benchGames is the file the benchmarks replay: $DANKYU_GAMES, else the
// shared million-game file when present, else a committed subset. Only
// benchmarks read the big file; go test without -bench never does.
func benchGames(b *testing.B) []byte {
	b.Helper()
	for _, path := range []string{os.Getenv("DANKYU_GAMES"), "/work/shared/data/ratings/games.csv", "testdata/tygem-3000.csv"} {
		if path == "" {
			continue
		}
		if data, err := os.ReadFile(path); err == nil {
			b.Logf("%s: %d bytes", path, len(data))
			return data
		}
	}
	b.Fatal("no games file")
	return nil
}

func parseBench(b *testing.B, data []byte) *Games {
	gs, err := ReadGames(bytes.NewReader(data))
	if err != nil {
		b.Fatal(err)
	}
	return gs
}

// BenchmarkParse is the yardstick: reading the games file only.
func BenchmarkParse(b *testing.B) {
	data := benchGames(b)
	b.SetBytes(int64(len(data)))
	for b.Loop() {
		parseBench(b, data)
	}
}

// BenchmarkReplay parses the file and replays it through each system
// (predict, then update, every game), default parameters.
func BenchmarkReplay(b *testing.B) {
	data := benchGames(b)
	for _, m := range Models() {
		b.Run(m.Name, func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			x := make([]float64, len(m.Params))
			for i, p := range m.Params {
				x[i] = p.Init
			}
			for b.Loop() {
				gs := parseBench(b, data)
				Replay(gs.Games, m.New(x, len(gs.Players), 2100), ByGame)
			}
		})
	}
}

// BenchmarkRatio times, in each iteration, a parse alone and then a parse
// plus replay, and reports their ratio: interleaving makes it robust to the
// load of a shared machine, where separate benchmarks drift apart.
func BenchmarkRatio(b *testing.B) {
	data := benchGames(b)
	for _, m := range Models() {
		b.Run(m.Name, func(b *testing.B) {
			x := make([]float64, len(m.Params))
			for i, p := range m.Params {
				x[i] = p.Init
			}
			var parse, replay time.Duration
			for b.Loop() {
				t0 := time.Now()
				parseBench(b, data)
				t1 := time.Now()
				gs := parseBench(b, data)
				Replay(gs.Games, m.New(x, len(gs.Players), 2100), ByGame)
				parse += t1.Sub(t0)
				replay += time.Since(t1)
			}
			b.ReportMetric(float64(replay)/float64(parse), "replay/parse")
		})
	}
}

// plainCSV is the yardstick of issue 30: encoding/csv reading every field
// of every row, the fields touched and nothing kept.
func plainCSV(b *testing.B, data []byte) int {
	cr := csv.NewReader(bytes.NewReader(data))
	n := 0
	for {
		rec, err := cr.Read()
		if errors.Is(err, io.EOF) {
			return n
		}
		if err != nil {
			b.Fatal(err)
		}
		for _, f := range rec {
			n += len(f)
		}
	}
}

// BenchmarkGamesReplayVsCSV times, in each iteration and interleaved, the
// plain CSV read, the project's reader, a GoR replay (read + rate) and a
// replay with the default system (bayes, DefaultBayes), each reported as a
// ratio to the plain read: each its fastest of the run's iterations, which
// load on a shared machine does not inflate.
func BenchmarkGamesReplayVsCSV(b *testing.B) {
	data := benchGames(b)
	base, read, gor, def := time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62), time.Duration(1<<62)
	for b.Loop() {
		t0 := time.Now()
		plainCSV(b, data)
		t1 := time.Now()
		parseBench(b, data)
		t2 := time.Now()
		gs := parseBench(b, data)
		Replay(gs.Games, NewGoR(len(gs.Players), 2100), ByGame)
		t3 := time.Now()
		gs = parseBench(b, data)
		Replay(gs.Games, NewBayes(len(gs.Players), 2100, DefaultBayes()), ByGame)
		t4 := time.Now()
		base = min(base, t1.Sub(t0))
		read = min(read, t2.Sub(t1))
		gor = min(gor, t3.Sub(t2))
		def = min(def, t4.Sub(t3))
	}
	b.ReportMetric(float64(base.Milliseconds()), "csv-ms")
	b.ReportMetric(float64(read)/float64(base), "reader/csv")
	b.ReportMetric(float64(gor)/float64(base), "gor/csv")
	b.ReportMetric(float64(def)/float64(base), "default/csv")
}
