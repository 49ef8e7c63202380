package server_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"slices"
	"sync"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/proto"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/server"
	"github.com/dankyu/dankyu/ledger"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/webhooks"
)

// TestWebhookServiceOverGRPC: an agency subscribes a real loopback
// receiver over gRPC (the secret in the answer, the same answer to a retry
// with the same idempotency key); a certificate issued afterwards is
// posted to it, signed with that secret, and the try is listed; another
// agency neither sees the subscription nor may end it nor list its tries;
// the public may not subscribe; the owner ends it. Over plain HTTP/JSON a
// POST to /api/v1/webhooks subscribes as well and the refusal is the same
// as over gRPC.
func TestWebhookServiceOverGRPC(t *testing.T) {
	e := newEnvConfig(t, server.Config{WebhookPrivateNetworks: true}) // the receiver is on loopback
	ctx := context.Background()
	e.clock.Set(time.Date(2027, 3, 1, 2, 0, 0, 0, time.UTC))
	hooks := pb.NewWebhookServiceClient(e.conn)
	system := ledger.Actor{Kind: ledger.SystemActor, Name: "test"}
	sh, _, err := e.reg.CreateToken(ctx, system, ledger.AgencyActor, "310", "")
	if err != nil {
		t.Fatal(err)
	}

	var mu sync.Mutex
	type post struct {
		header http.Header
		body   []byte
	}
	var got []post
	recv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		mu.Lock()
		got = append(got, post{r.Header.Clone(), b})
		mu.Unlock()
		w.WriteHeader(http.StatusNoContent)
	}))
	t.Cleanup(recv.Close)

	// the dispatcher as the server runs it, driven by hand: it starts at the log's end
	disp := webhooks.New(e.store, nil, nil, webhooks.PrivateNetworks())
	if _, err := disp.Enqueue(ctx); err != nil {
		t.Fatal(err)
	}

	_, err = hooks.SubscribeWebhook(e.as(""), &pb.SubscribeWebhookRequest{Url: recv.URL, Actions: []string{"certificate.issued"}})
	if status.Code(err) != codes.PermissionDenied || reasonOf(err) != "WEBHOOK_FORBIDDEN" {
		t.Fatalf("the public subscribing: %v, want PERMISSION_DENIED, WEBHOOK_FORBIDDEN", err)
	}
	_, err = hooks.SubscribeWebhook(e.as(e.bj), &pb.SubscribeWebhookRequest{Url: recv.URL, Actions: []string{"player.registered"}})
	if status.Code(err) != codes.InvalidArgument || reasonOf(err) != "WEBHOOK_ACTIONS" {
		t.Fatalf("an action not subscribable: %v, want INVALID_ARGUMENT, WEBHOOK_ACTIONS", err)
	}
	req := &pb.SubscribeWebhookRequest{Url: recv.URL + "/hook", Actions: []string{"certificate.issued", "certificate.revoked"}}
	sub, err := hooks.SubscribeWebhook(e.as(e.bj, "idempotency-key", "hook-1"), req)
	if err != nil {
		t.Fatal(err)
	}
	if len(sub.GetSecret()) != 64 || sub.GetWebhook().GetOwner() != "agency:110" || sub.GetWebhook().GetUrl() != recv.URL+"/hook" ||
		!slices.Equal(sub.GetWebhook().GetActions(), []string{"certificate.issued", "certificate.revoked"}) || sub.GetWebhook().GetEnded() {
		t.Fatalf("the subscription: %v", sub)
	}
	again, err := hooks.SubscribeWebhook(e.as(e.bj, "idempotency-key", "hook-1"), req)
	if err != nil || !proto.Equal(again, sub) {
		t.Fatalf("the retried subscription: %v, %v; want %v", again, err, sub)
	}
	id := sub.GetWebhook().GetId()

	// a certificate issued after the subscription
	fixture.Stock(t, e.cs, "110", 2027, 10, 0)
	bj := fixture.Agency("110")
	p := fixture.Player(t, e.reg, "110", "钩子", "", "1990-01-01", 1)
	a, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: "1d", Basis: "tournament", EventID: fixture.Earned(t, e.ts, "1d", p.ID)})
	if err != nil {
		t.Fatal(err)
	}
	if a, err = e.cs.Approve(ctx, bj, "", a.ID); err != nil {
		t.Fatal(err)
	}
	for range 20 { // each round reads at most a batch of the log
		n, err := disp.Enqueue(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if n > 0 {
			break
		}
	}
	if n, err := disp.Deliver(ctx); err != nil || n != 1 {
		t.Fatalf("deliver: %d tried, %v; want 1", n, err)
	}
	mu.Lock()
	posts := slices.Clone(got)
	mu.Unlock()
	if len(posts) != 1 {
		t.Fatalf("the receiver got %d posts, want 1", len(posts))
	}
	var body webhooks.Body
	if err := json.Unmarshal(posts[0].body, &body); err != nil {
		t.Fatal(err)
	}
	if body.Action != "certificate.issued" || body.EntityID == "" || posts[0].header.Get(webhooks.EventHeader) != "certificate.issued" ||
		!webhooks.Verify(sub.GetSecret(), posts[0].header.Get(webhooks.SignatureHeader), posts[0].body) {
		t.Fatalf("the post: %s %v; want certificate.issued signed with the subscription's secret", posts[0].body, posts[0].header)
	}
	if webhooks.Verify(fmt.Sprintf("%064d", 0), posts[0].header.Get(webhooks.SignatureHeader), posts[0].body) {
		t.Fatal("the signature verifies under another secret")
	}
	tries, err := hooks.ListWebhookAttempts(e.as(e.bj), &pb.ListWebhookAttemptsRequest{Id: id})
	if err != nil || len(tries.GetAttempts()) != 1 || tries.GetAttempts()[0].GetStatus() != "delivered" ||
		tries.GetAttempts()[0].GetStatusCode() != http.StatusNoContent || tries.GetAttempts()[0].GetEventId() != body.Event {
		t.Fatalf("the tries: %v, %v", tries, err)
	}

	// another agency: not its subscription
	other, err := hooks.ListWebhooks(e.as(sh), &pb.ListWebhooksRequest{})
	if err != nil || len(other.GetWebhooks()) != 0 {
		t.Fatalf("another agency's list: %v, %v; want none", other, err)
	}
	if tries, err := hooks.ListWebhookAttempts(e.as(sh), &pb.ListWebhookAttemptsRequest{Id: id}); err != nil || len(tries.GetAttempts()) != 0 {
		t.Fatalf("another agency's tries: %v, %v; want none", tries, err)
	}
	_, err = hooks.UnsubscribeWebhook(e.as(sh), &pb.UnsubscribeWebhookRequest{Id: id})
	if status.Code(err) != codes.NotFound || reasonOf(err) != "WEBHOOK_NO_SUCH_SUBSCRIPTION" {
		t.Fatalf("another agency unsubscribing: %v, want NOT_FOUND, WEBHOOK_NO_SUCH_SUBSCRIPTION", err)
	}
	mine, err := hooks.ListWebhooks(e.as(e.bj), &pb.ListWebhooksRequest{})
	if err != nil || len(mine.GetWebhooks()) != 1 || !proto.Equal(mine.GetWebhooks()[0], sub.GetWebhook()) {
		t.Fatalf("the owner's list: %v, %v; want the subscription", mine, err)
	}
	staffs, err := hooks.ListWebhooks(e.as(e.staff), &pb.ListWebhooksRequest{})
	if err != nil || len(staffs.GetWebhooks()) != 1 {
		t.Fatalf("staff's list: %v, %v; want the subscription", staffs, err)
	}

	// over plain HTTP/JSON
	api := e.httpAPI(t) + "/api"
	code, raw := call(t, "POST", api+"/v1/webhooks", `{"url":"`+recv.URL+`/other","actions":["notice.published"]}`, "Authorization", "Bearer "+sh)
	var viaHTTP pb.SubscribeWebhookResponse
	answer(t, "subscribe over HTTP", code, raw, &viaHTTP)
	if len(viaHTTP.GetSecret()) != 64 || viaHTTP.GetWebhook().GetOwner() != "agency:310" || viaHTTP.GetWebhook().GetId() == id {
		t.Fatalf("subscribed over HTTP: %v", &viaHTTP)
	}
	_, grpcErr := hooks.UnsubscribeWebhook(e.as(sh), &pb.UnsubscribeWebhookRequest{Id: id})
	code, raw = call(t, "POST", fmt.Sprintf("%s/v1/webhooks/%d:unsubscribe", api, id), `{}`, "Authorization", "Bearer "+sh)
	sameRefusal(t, "another agency unsubscribing over HTTP", grpcErr, code, raw)

	// the owner ends it
	ended, err := hooks.UnsubscribeWebhook(e.as(e.bj), &pb.UnsubscribeWebhookRequest{Id: id})
	if err != nil || !ended.GetWebhook().GetEnded() {
		t.Fatalf("unsubscribe: %v, %v", ended, err)
	}
}

// TestWebhooksRefuseInsideAddresses: by default a subscription may not
// name this machine or an inside network (the registry would otherwise
// probe them for the subscriber and show the answers in its attempts);
// a public address is taken.
func TestWebhooksRefuseInsideAddresses(t *testing.T) {
	e := newEnv(t)
	hooks := pb.NewWebhookServiceClient(e.conn)
	for _, u := range []string{"http://127.0.0.1:5432/", "http://localhost:9464/metrics", "http://[::1]/", "http://10.1.2.3/hook",
		"http://192.168.0.7/", "http://169.254.169.254/latest/meta-data/", "http://0.0.0.0:8080/", "http://[::ffff:127.0.0.1]/", "https://db.localhost/"} {
		_, err := hooks.SubscribeWebhook(e.as(e.bj), &pb.SubscribeWebhookRequest{Url: u, Actions: []string{"certificate.issued"}})
		if status.Code(err) != codes.InvalidArgument || reasonOf(err) != "WEBHOOK_INSIDE_ADDRESS" {
			t.Errorf("subscribing %s: %v, want INVALID_ARGUMENT, WEBHOOK_INSIDE_ADDRESS", u, err)
		}
	}
	if _, err := hooks.SubscribeWebhook(e.as(e.bj), &pb.SubscribeWebhookRequest{Url: "https://203.0.113.9/hook", Actions: []string{"certificate.issued"}}); err != nil {
		t.Errorf("a public address: %v", err)
	}
}
