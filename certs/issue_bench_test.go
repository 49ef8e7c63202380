package certs_test

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
)

const benchClients = 32

// runClients runs n operations spread over benchClients goroutines and
// returns the throughput in operations per second.
func runClients(b *testing.B, n int, op func(i int) error) float64 {
	b.Helper()
	var next atomic.Int64
	var wg sync.WaitGroup
	var failed atomic.Value
	start := time.Now()
	for range benchClients {
		wg.Go(func() {
			for {
				i := int(next.Add(1)) - 1
				if i >= n {
					return
				}
				if err := op(i); err != nil {
					failed.Store(err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err, _ := failed.Load().(error); err != nil {
		b.Fatal(err)
	}
	return float64(n) / time.Since(start).Seconds()
}

// BenchmarkIssuance measures certificate issuance (approving a 1-dan
// application: permission checks, series row lock, quota, certificate row,
// rank change, chained event log, idempotency record) with 32 concurrent
// clients, and in the same run on the same database the throughput of a
// plain single-row `UPDATE … RETURNING` loop, also from 32 clients. The
// ratio is the figure to compare across machines.
func BenchmarkIssuance(b *testing.B) {
	ctx := context.Background()
	e := newEnv(b, certs.Config{})
	prefixes := []string{"110", "310", "440"}
	for _, pre := range prefixes {
		fixture.Stock(b, e.cs, pre, e.year(), certs.MaxDanSerial, 0)
	}
	n := b.N
	if n > len(prefixes)*certs.MaxDanSerial {
		n = len(prefixes) * certs.MaxDanSerial
	}
	apps := make([]int64, n)
	actors := make([]ledger.Actor, n)
	players := make([]int64, n)
	for i := range n {
		pre := prefixes[i%len(prefixes)]
		players[i] = fixture.Player(b, e.reg, pre, fmt.Sprintf("b%d", i), "", "1990-01-01", i/len(prefixes)).ID
	}
	ev := fixture.Earned(b, e.ts, "1d", players...)
	for i := range n {
		actors[i] = fixture.Agency(prefixes[i%len(prefixes)])
		a, err := e.cs.Apply(ctx, actors[i], "", certs.ApplicationInput{PlayerID: players[i], TargetRank: "1d", Basis: "tournament", EventID: ev})
		if err != nil {
			b.Fatal(err)
		}
		apps[i] = a.ID
	}
	if _, err := e.pool.Exec(ctx, `CREATE TABLE bench_counter (id int PRIMARY KEY, n bigint NOT NULL);
		INSERT INTO bench_counter VALUES (1, 0)`); err != nil {
		b.Fatal(err)
	}
	b.ResetTimer()
	updates := runClients(b, n, func(int) error {
		var v int64
		return e.pool.QueryRow(ctx, `UPDATE bench_counter SET n = n + 1 WHERE id = 1 RETURNING n`).Scan(&v)
	})
	issues := runClients(b, n, func(i int) error {
		_, err := e.cs.Approve(ctx, actors[i], fmt.Sprintf("bench-%d", i), apps[i])
		return err
	})
	b.StopTimer()
	b.ReportMetric(issues, "issues/s")
	b.ReportMetric(updates, "updates/s")
	b.ReportMetric(updates/issues, "update/issue")
}
