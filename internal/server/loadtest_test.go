package server_test

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"os"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	healthpb "google.golang.org/grpc/health/grpc_health_v1"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// loadResult is one load run: requests done, failed, and their latencies.
type loadResult struct {
	ok, failed int64
	took       time.Duration
	lat        []time.Duration
}

func (r loadResult) String() string {
	if len(r.lat) == 0 {
		return "no requests"
	}
	slices.Sort(r.lat)
	q := func(f float64) time.Duration { return r.lat[int(f*float64(len(r.lat)-1))].Round(time.Microsecond) }
	return fmt.Sprintf("%7.0f req/s  p50 %-9s p99 %-9s failed %d", float64(r.ok)/r.took.Seconds(), q(0.5), q(0.99), r.failed)
}

// drive runs clients doing op until d has passed or max requests are done
// (loopback only: the test's own servers).
func drive(clients int, d time.Duration, max int64, op func() error) loadResult {
	var ok, failed, started atomic.Int64
	var mu sync.Mutex
	var lat []time.Duration
	deadline := time.Now().Add(d)
	start := time.Now()
	var wg sync.WaitGroup
	for range clients {
		wg.Go(func() {
			var mine []time.Duration
			for time.Now().Before(deadline) && started.Add(1) <= max {
				t0 := time.Now()
				if err := op(); err != nil {
					failed.Add(1)
					continue
				}
				mine = append(mine, time.Since(t0))
				ok.Add(1)
			}
			mu.Lock()
			lat = append(lat, mine...)
			mu.Unlock()
		})
	}
	wg.Wait()
	return loadResult{ok: ok.Load(), failed: failed.Load(), took: time.Since(start), lat: lat}
}

// loadEnv is a replica environment with the numbers to verify and notices
// to object to, and the writers that keep issuing and objecting meanwhile.
type loadEnv struct {
	*replicaEnv
	numbers []string
	notices []int64
	client  *http.Client
}

func newLoadEnv(t *testing.T, withReplica bool) *loadEnv {
	e := &loadEnv{replicaEnv: newReplicaEnvWith(t, 2*time.Second, withReplica)}
	for range 20 {
		e.numbers = append(e.numbers, e.issue(t))
	}
	for i := range 3 {
		e.seq++
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("公示%d", i), "3d", "1970-01-01", 900+i)
		a, err := e.cs.Apply(context.Background(), fixture.Agency("110"), "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "4d",
			Basis: "tournament", EventID: fixture.Earned(t, e.ts, "4d", p.ID)})
		if err == nil {
			a, err = e.cs.Approve(context.Background(), fixture.Agency("110"), "", a.ID)
		}
		if err != nil || a.NoticeID == 0 {
			t.Fatalf("5 dan on notice: %v %v", a, err)
		}
		e.notices = append(e.notices, a.NoticeID)
	}
	if withReplica {
		e.untilReplayed(t, e.numbers[len(e.numbers)-1])
	}
	e.client = &http.Client{Transport: &http.Transport{MaxIdleConnsPerHost: 512, MaxConnsPerHost: 512}}
	return e
}

func (e *loadEnv) get(path string) error {
	resp, err := e.client.Get(e.portal.URL + path)
	if err != nil {
		return err
	}
	_, _ = io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return fmt.Errorf("GET %s: %d", path, resp.StatusCode)
	}
	return nil
}

// writing issues certificates and lodges objections until stop is closed,
// and says how many writes it made.
func (e *loadEnv) writing(t *testing.T, stop <-chan struct{}) func() int {
	var n atomic.Int64
	done := make(chan struct{})
	go func() {
		defer close(done)
		for i := 0; ; i++ {
			select {
			case <-stop:
				return
			default:
			}
			if i%2 == 0 {
				e.issue(t)
			} else {
				_, err := e.cs.LodgeObjection(context.Background(), "", certs.ObjectionInput{NoticeID: e.notices[i%len(e.notices)],
					Name: "观众", Contact: fmt.Sprintf("139%08d", i), Reason: fmt.Sprintf("疑问 %d", i), Address: fmt.Sprintf("10.%d.%d.1", i/250%250, i%250)})
				if err != nil {
					t.Errorf("objection: %v", err)
					return
				}
			}
			n.Add(1)
		}
	}()
	return func() int { <-done; return int(n.Load()) }
}

// TestLoad drives the public verification page and VerifyCertificate at
// concurrency 32 and 256, with and without a replica, with issues and
// objections written meanwhile, beside a trivial handler and the health
// check on the same servers; then kills the replica mid-load and counts
// failed public requests (none may fail: reads of a dying replica are
// answered by the primary). Bounded: each run lasts at most the set time
// and request count. DANKYU_LOADTEST=1 runs the full table; without it a
// short smoke of the fault run.
func TestLoad(t *testing.T) {
	full := os.Getenv("DANKYU_LOADTEST") == "1"
	runFor, max := 3*time.Second, int64(200_000)
	if !full {
		runFor = time.Second
	}
	ctx := context.Background()
	if full {
		for _, withReplica := range []bool{false, true} {
			e := newLoadEnv(t, withReplica)
			for _, clients := range []int{32, 256} {
				stop := make(chan struct{})
				writes := e.writing(t, stop)
				r0, p0 := int64(0), e.router.PrimaryReads()
				if withReplica {
					r0 = e.router.Status()[0].Reads
				}
				i := atomic.Int64{}
				page := drive(clients, runFor, max, func() error {
					return e.get("/verify?number=" + e.numbers[int(i.Add(1))%len(e.numbers)])
				})
				rpc := drive(clients, runFor, max, func() error {
					_, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: e.numbers[int(i.Add(1))%len(e.numbers)]})
					return err
				})
				trivial := drive(clients, runFor, max, func() error { return e.get("/trivial") })
				health := drive(clients, runFor, max, func() error {
					_, err := e.health.Check(ctx, &healthpb.HealthCheckRequest{})
					return err
				})
				close(stop)
				w := writes()
				fromReplica := int64(0)
				if withReplica {
					fromReplica = e.router.Status()[0].Reads - r0
				}
				t.Logf("replica=%v clients=%d (writes meanwhile %d; public reads by the replica %d, by the primary %d)\n  /verify page       %s\n  /trivial           %s\n  VerifyCertificate  %s\n  health check       %s",
					withReplica, clients, w, fromReplica, e.router.PrimaryReads()-p0, page, trivial, rpc, health)
				if page.failed+rpc.failed > 0 {
					t.Errorf("failed public requests: page %d, rpc %d", page.failed, rpc.failed)
				}
			}
		}
	}

	// the fault run: the replica killed halfway through the load
	e := newLoadEnv(t, true)
	clients := 32
	stop := make(chan struct{})
	writes := e.writing(t, stop)
	killed := make(chan error, 1)
	go func() {
		time.Sleep(runFor / 2)
		killed <- e.standby.Kill(ctx)
	}()
	i := atomic.Int64{}
	var pageFailed, rpcFailed atomic.Int64
	res := drive(clients, runFor, max, func() error {
		n := e.numbers[int(i.Add(1))%len(e.numbers)]
		if i.Load()%2 == 0 {
			err := e.get("/verify?number=" + n)
			if err != nil {
				pageFailed.Add(1)
			}
			return err
		}
		_, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: n})
		if err != nil {
			rpcFailed.Add(1)
		}
		return err
	})
	close(stop)
	w := writes()
	if err := <-killed; err != nil {
		t.Fatal(err)
	}
	st := e.router.Status()[0]
	t.Logf("fault run, clients=%d, replica killed at %s: %s; writes %d; replica served %d, primary %d; replica now %+v",
		clients, runFor/2, res, w, st.Reads, e.router.PrimaryReads(), st)
	if res.failed > 0 {
		t.Errorf("%d public requests failed while the replica died (page %d, rpc %d)", res.failed, pageFailed.Load(), rpcFailed.Load())
	}
	if st.InRotation || e.router.PrimaryReads() == 0 || st.Reads == 0 {
		t.Errorf("after the kill: %+v, primary reads %d; want the replica to have served and then left rotation", st, e.router.PrimaryReads())
	}
}
