package certs_test

import (
	"context"
	"fmt"
	"sort"
	"sync"
	"testing"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/ledger"
	"github.com/dankyu/dankyu/registry"
)

// TestConcurrentIssuanceHasNoGapsOrDuplicates issues thousands of
// certificates from many goroutines in three provinces, retrying a share of
// the requests with their idempotency keys (some at the same moment), and
// checks that every series is exactly 0001..N.
func TestConcurrentIssuanceHasNoGapsOrDuplicates(t *testing.T) {
	const (
		playersPerProvince = 200
		workers            = 24
	)
	ctx := context.Background()
	e := newEnv(t, certs.Config{})
	prefixes := []string{"110", "310", "440"}
	ranks := []string{"1k", "1d", "2d", "3d"} // 1k is printed (kyu series), 1–3 dan issue on approval
	type job struct {
		actor ledger.Actor
		p     registry.Player
	}
	var jobs []job
	for _, pre := range prefixes {
		fixture.Stock(t, e.cs, pre, e.year(), 9999, 9999)
		for i := range playersPerProvince {
			jobs = append(jobs, job{fixture.Agency(pre), fixture.Player(t, e.reg, pre, fmt.Sprintf("棋手%s-%d", pre, i), "", "1990-01-01", i)})
		}
	}

	events := map[int64]int64{} // player → the event earning him 3 dan
	for _, pre := range prefixes {
		var ids []int64
		for _, j := range jobs {
			if j.actor.Agency == pre {
				ids = append(ids, j.p.ID)
			}
		}
		ev := fixture.Earned(t, e.ts, "3d", ids...)
		for _, id := range ids {
			events[id] = ev
		}
	}
	var (
		mu      sync.Mutex
		numbers = map[string]string{} // number -> who got it
		errs    []error
	)
	record := func(who, number string) {
		mu.Lock()
		defer mu.Unlock()
		if prev, ok := numbers[number]; ok && prev != who {
			errs = append(errs, fmt.Errorf("number %s handed to %s and %s", number, prev, who))
		}
		numbers[number] = who
	}
	fail := func(err error) { mu.Lock(); errs = append(errs, err); mu.Unlock() }

	ch := make(chan job)
	var wg sync.WaitGroup
	for w := range workers {
		wg.Go(func() {
			for j := range ch {
				for k, r := range ranks {
					key := fmt.Sprintf("p%d-%s", j.p.ID, r)
					a, err := e.cs.Apply(ctx, j.actor, "apply-"+key, certs.ApplicationInput{PlayerID: j.p.ID, TargetRank: r,
						Basis: "tournament", EventID: events[j.p.ID]})
					if err != nil {
						fail(fmt.Errorf("apply %s: %w", key, err))
						break
					}
					who := fmt.Sprintf("player %d %s", j.p.ID, r)
					switch (int(j.p.ID) + k + w) % 4 {
					case 0: // a retry after the answer was lost
						first, err1 := e.cs.Approve(ctx, j.actor, "approve-"+key, a.ID)
						again, err2 := e.cs.Approve(ctx, j.actor, "approve-"+key, a.ID)
						if err1 != nil || err2 != nil || first.CertificateNumber != again.CertificateNumber {
							fail(fmt.Errorf("retried approve %s: %q %v / %q %v", key, first.CertificateNumber, err1, again.CertificateNumber, err2))
							continue
						}
						record(who, first.CertificateNumber)
					case 1: // the same request sent twice at once
						var pair [2]certs.Application
						var perr [2]error
						var inner sync.WaitGroup
						for i := range 2 {
							inner.Go(func() { pair[i], perr[i] = e.cs.Approve(ctx, j.actor, "approve-"+key, a.ID) })
						}
						inner.Wait()
						if perr[0] != nil || perr[1] != nil || pair[0].CertificateNumber != pair[1].CertificateNumber {
							fail(fmt.Errorf("simultaneous approve %s: %q %v / %q %v", key, pair[0].CertificateNumber, perr[0], pair[1].CertificateNumber, perr[1]))
							continue
						}
						record(who, pair[0].CertificateNumber)
					default:
						got, err := e.cs.Approve(ctx, j.actor, "approve-"+key, a.ID)
						if err != nil {
							fail(fmt.Errorf("approve %s: %w", key, err))
							continue
						}
						record(who, got.CertificateNumber)
					}
				}
			}
		})
	}
	for _, j := range jobs {
		ch <- j
	}
	close(ch)
	wg.Wait()
	for _, err := range errs {
		t.Error(err)
	}
	if t.Failed() {
		return
	}

	want := len(jobs) * len(ranks)
	if len(numbers) != want {
		t.Fatalf("%d distinct numbers, want %d", len(numbers), want)
	}
	series := map[string][]int{}
	for n := range numbers {
		num, err := certs.ParseNumber(n)
		if err != nil {
			t.Fatalf("issued number %q does not parse: %v", n, err)
		}
		k := fmt.Sprintf("%s %s-%02d", num.Kind, num.Prefix, num.Year)
		series[k] = append(series[k], num.Serial)
	}
	if len(series) != 2*len(prefixes) {
		t.Fatalf("series = %v, want a dan and a kyu series per province", keys(series))
	}
	for k, serials := range series {
		sort.Ints(serials)
		for i, s := range serials {
			if s != i+1 {
				t.Fatalf("series %s: serial #%d is %d (gap or duplicate)", k, i+1, s)
			}
		}
	}
	// and the database agrees: one row per number, counters at N
	var rows, maxSerialSum, counterSum int
	err := e.pool.QueryRow(ctx, `SELECT (SELECT count(*) FROM certificates),
		(SELECT sum(m) FROM (SELECT max(serial) AS m FROM certificates GROUP BY issuing_prefix, year, kind) x),
		(SELECT sum(last_serial) FROM certificate_series)`).Scan(&rows, &maxSerialSum, &counterSum)
	if err != nil {
		t.Fatal(err)
	}
	if rows != want || maxSerialSum != want || counterSum != want {
		t.Fatalf("rows %d, sum of max serials %d, sum of counters %d; want %d each", rows, maxSerialSum, counterSum, want)
	}
	if _, err := ledger.VerifyLog(ctx, e.pool); err != nil {
		t.Fatal(err)
	}
}

func keys[V any](m map[string]V) []string {
	var ks []string
	for k := range m {
		ks = append(ks, k)
	}
	sort.Strings(ks)
	return ks
}
