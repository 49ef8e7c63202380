package server_test

import (
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"

	"github.com/dankyu/dankyu/internal/httpapi"
	"github.com/dankyu/dankyu/internal/server"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
	"github.com/dankyu/dankyu/ratings/book"
)

// TestInstitutionKeyQuota: staff issue a university a key with a quota of
// its own; its verifications spend that quota (a batch one per number),
// not the small per-address budget, counted in PostgreSQL so that a second
// server spends the same quota; past it the key is refused with its code;
// the count is what staff read; a revoked key is refused with its code;
// issue and revocation are logged without the key.
func TestInstitutionKeyQuota(t *testing.T) {
	e := newEnvConfig(t, server.Config{RateVerify: "1/1h"})
	e.clock.Set(time.Date(2027, 3, 1, 2, 10, 0, 0, time.UTC))
	api := e.httpAPI(t) + "/api"
	// a second server over the same database, with limiters of its own
	lim, err := (&server.Config{RateVerify: "1/1h"}).Limiters(e.clock.Now, nil)
	if err != nil {
		t.Fatal(err)
	}
	gs2, _ := server.NewGRPCServer(e.store, e.reg, e.cs, e.ts, e.au, book.New(e.store), slog.New(slog.DiscardHandler), lim.API())
	h2, err := httpapi.New(gs2)
	if err != nil {
		t.Fatal(err)
	}
	srv2 := httptest.NewServer(httpapi.Mount(h2, http.NotFoundHandler()))
	t.Cleanup(srv2.Close)
	api2 := srv2.URL + "/api"

	issue := &pb.IssueInstitutionKeyRequest{Institution: "清华大学招生办", Kind: "university", Quota: 5, Per: "hour"}
	_, err = e.client.IssueInstitutionKey(e.as(e.bj), issue)
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("an agency issuing a key: %v, want PERMISSION_DENIED", err)
	}
	_, err = e.client.IssueInstitutionKey(e.as(e.staff), &pb.IssueInstitutionKeyRequest{Institution: "x", Quota: 5, Per: "week"})
	if reasonOf(err) != "INSTITUTION_KEY_PER" {
		t.Fatalf("a quota per week: %v, want INSTITUTION_KEY_PER", err)
	}
	issued, err := e.client.IssueInstitutionKey(e.as(e.staff), issue)
	if err != nil {
		t.Fatal(err)
	}
	key, id := issued.GetApiKey(), issued.GetKey().GetId()
	if !strings.HasPrefix(key, "dkk_") || len(key) < 40 || !strings.HasPrefix(key, issued.GetKey().GetShown()) || len(issued.GetKey().GetShown()) >= len(key) {
		t.Fatalf("issued %q shown as %q", key, issued.GetKey().GetShown())
	}
	list, err := e.client.ListInstitutionKeys(e.as(e.staff), &pb.ListInstitutionKeysRequest{})
	if err != nil || len(list.GetKeys()) != 1 || list.GetKeys()[0].GetInstitution() != "清华大学招生办" || strings.Contains(protojson.Format(list), key) {
		t.Fatalf("staff's list: %v %v", list, err)
	}

	// the public's address has 1 per hour; the key 5 of its own
	verify := func(base, number string, headers ...string) (int, string) {
		code, body := call(t, "GET", base+"/v1/certificates/"+number, nil, headers...)
		return code, string(body)
	}
	batch := func(base string, n int, headers ...string) (int, string) {
		claims := strings.Repeat(`{"number":"110270001"},`, n)
		code, body := call(t, "POST", base+"/v1/certificates:verifyBatch", `{"claims":[`+strings.TrimSuffix(claims, ",")+`]}`, headers...)
		return code, string(body)
	}
	if code, body := verify(api, "110270001"); code != 200 {
		t.Fatalf("the public's one: %d %s", code, body)
	}
	if code, body := verify(api, "110270001"); code != 429 || !strings.Contains(body, "RATE_LIMITED") {
		t.Fatalf("the public's second: %d %s", code, body)
	}
	if code, body := batch(api, 3, "X-Api-Key", key); code != 200 {
		t.Fatalf("a batch of 3 with the key: %d %s", code, body)
	}
	if code, body := verify(api2, "110270001", "X-Api-Key", key); code != 200 {
		t.Fatalf("the 4th on the second server: %d %s", code, body)
	}
	if code, body := batch(api2, 2, "X-Api-Key", key); code != 429 || !strings.Contains(body, `"INSTITUTION_KEY_QUOTA"`) || !strings.Contains(body, `"used":"4"`) {
		t.Fatalf("a batch of 2 with 1 left: %d %s; want 429 INSTITUTION_KEY_QUOTA", code, body)
	}
	// over gRPC the same quota and the same refusal
	if _, err := e.certs.VerifyCertificate(e.as("", "x-api-key", key), &pb.VerifyCertificateRequest{Number: "110270001"}); err != nil {
		t.Fatalf("the 5th over gRPC: %v", err)
	}
	_, err = e.certs.VerifyCertificate(e.as("", "x-api-key", key), &pb.VerifyCertificateRequest{Number: "110270001"})
	if status.Code(err) != codes.ResourceExhausted || reasonOf(err) != "INSTITUTION_KEY_QUOTA" {
		t.Fatalf("the 6th over gRPC: %v", err)
	}
	use, err := e.client.GetInstitutionKeyUsage(e.as(e.staff), &pb.GetInstitutionKeyUsageRequest{Id: id})
	if err != nil || len(use.GetWindows()) != 1 || use.GetTotalUsed() != 5 || use.GetWindows()[0].GetUsed() != 5 || use.GetWindows()[0].GetRefused() != 2 ||
		!use.GetWindows()[0].GetWindowStart().AsTime().Equal(time.Date(2027, 3, 1, 2, 0, 0, 0, time.UTC)) {
		t.Fatalf("usage: %v %v; want 5 used and 2 refused in the hour from 02:00", use, err)
	}
	// the next hour, the quota is whole again
	e.clock.Set(time.Date(2027, 3, 1, 3, 0, 0, 0, time.UTC))
	if code, body := batch(api, 5, "X-Api-Key", key); code != 200 {
		t.Fatalf("a new hour's 5: %d %s", code, body)
	}

	// unknown and revoked keys are refused with their codes, never sent
	// to the address's budget
	if code, body := verify(api, "110270001", "X-Api-Key", "dkk_not-issued"); code != 401 || !strings.Contains(body, `"UNKNOWN_INSTITUTION_KEY"`) {
		t.Fatalf("an unknown key: %d %s", code, body)
	}
	_, err = e.client.RevokeInstitutionKey(e.as(e.bj), &pb.RevokeInstitutionKeyRequest{Id: id, Reason: "季节结束"})
	if status.Code(err) != codes.PermissionDenied {
		t.Fatalf("an agency revoking a key: %v", err)
	}
	var revoked pb.RevokeInstitutionKeyResponse
	code, body := call(t, "POST", api+"/v1/institution-keys/"+strconv.FormatInt(id, 10)+":revoke", `{"reason":"招生季结束"}`, "Authorization", "Bearer "+e.staff)
	answer(t, "revoke over HTTP", code, body, &revoked)
	if revoked.GetKey().GetRevokedAt() == nil || revoked.GetKey().GetRevokeReason() != "招生季结束" {
		t.Fatalf("revoked: %v", &revoked)
	}
	if code, body := verify(api2, "110270001", "X-Api-Key", key); code != 403 || !strings.Contains(body, `"REVOKED_INSTITUTION_KEY"`) {
		t.Fatalf("a revoked key: %d %s; want 403 REVOKED_INSTITUTION_KEY", code, body)
	}
	_, err = e.certs.VerifyCertificates(e.as("", "x-api-key", key), &pb.VerifyCertificatesRequest{Claims: []*pb.CertificateClaim{{Number: "110270001"}}})
	if status.Code(err) != codes.PermissionDenied || reasonOf(err) != "REVOKED_INSTITUTION_KEY" {
		t.Fatalf("a revoked key over gRPC: %v", err)
	}
	_, err = e.client.RevokeInstitutionKey(e.as(e.staff), &pb.RevokeInstitutionKeyRequest{Id: id, Reason: "again"})
	if status.Code(err) != codes.FailedPrecondition || reasonOf(err) != "INSTITUTION_KEY_ALREADY_REVOKED" {
		t.Fatalf("revoking twice: %v, want FAILED_PRECONDITION, INSTITUTION_KEY_ALREADY_REVOKED", err)
	}
	_, err = e.client.RevokeInstitutionKey(e.as(e.staff), &pb.RevokeInstitutionKeyRequest{Id: id + 1000, Reason: "none such"})
	if status.Code(err) != codes.NotFound || reasonOf(err) != "NO_SUCH_INSTITUTION_KEY" {
		t.Fatalf("revoking a key never issued: %v, want NOT_FOUND, NO_SUCH_INSTITUTION_KEY", err)
	}

	// both logged, with typed payloads and without the key
	rows, err := e.store.DB().Query(t.Context(), `SELECT action, payload::text FROM events WHERE entity_type = 'institution_key' AND entity_id = $1 ORDER BY id`, strconv.FormatInt(id, 10))
	if err != nil {
		t.Fatal(err)
	}
	var logged []string
	for rows.Next() {
		var action, payload string
		if err := rows.Scan(&action, &payload); err != nil {
			t.Fatal(err)
		}
		if strings.Contains(payload, key) || strings.Contains(payload, key[len(issued.GetKey().GetShown()):]) {
			t.Fatalf("%s logged the key: %s", action, payload)
		}
		logged = append(logged, action+" "+payload)
	}
	if len(logged) != 2 || !strings.HasPrefix(logged[0], `institution_key.issued {"institution":"清华大学招生办","kind":"university","quota":5,"per":"hour"`) ||
		logged[1] != `institution_key.revoked {"reason":"招生季结束"}` {
		t.Fatalf("logged: %q", logged)
	}
}
