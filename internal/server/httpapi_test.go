package server_test

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"google.golang.org/genproto/googleapis/rpc/errdetails"
	spb "google.golang.org/genproto/googleapis/rpc/status"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/encoding/protojson"
	"google.golang.org/protobuf/proto"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/internal/fixture"
	"github.com/dankyu/dankyu/internal/httpapi"
	"github.com/dankyu/dankyu/internal/server"
	pb "github.com/dankyu/dankyu/proto/dankyu/v1"
)

// httpAPI serves the API's HTTP/JSON face over e's gRPC server, on a real
// loopback listener, and returns its base URL.
func (e *env) httpAPI(t testing.TB) string {
	t.Helper()
	h, err := httpapi.New(e.gs)
	if err != nil {
		t.Fatal(err)
	}
	srv := httptest.NewServer(httpapi.Mount(h, http.NotFoundHandler()))
	t.Cleanup(srv.Close)
	return srv.URL
}

// call is one plain HTTP request; headers are name, value pairs.
func call(t testing.TB, method, url string, body any, headers ...string) (int, []byte) {
	t.Helper()
	var rd io.Reader
	switch b := body.(type) {
	case nil:
	case proto.Message:
		j, err := protojson.Marshal(b)
		if err != nil {
			t.Fatal(err)
		}
		rd = bytes.NewReader(j)
	case string:
		rd = strings.NewReader(b)
	}
	req, err := http.NewRequestWithContext(t.Context(), method, url, rd)
	if err != nil {
		t.Fatal(err)
	}
	if rd != nil {
		req.Header.Set("Content-Type", "application/json")
	}
	for i := 0; i+1 < len(headers); i += 2 {
		req.Header.Set(headers[i], headers[i+1])
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	out, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, out
}

// answer reads a 200 answer into m.
func answer(t testing.TB, what string, code int, body []byte, m proto.Message) {
	t.Helper()
	if code != http.StatusOK {
		t.Fatalf("%s: HTTP %d %s", what, code, body)
	}
	if err := protojson.Unmarshal(body, m); err != nil {
		t.Fatalf("%s: %v in %s", what, err, body)
	}
}

// httpStatusOf is the HTTP status a refusal of gRPC code c must answer with.
var httpStatusOf = map[codes.Code]int{
	codes.InvalidArgument: 400, codes.Unauthenticated: 401, codes.PermissionDenied: 403, codes.NotFound: 404,
	codes.Aborted: 409, codes.AlreadyExists: 409, codes.FailedPrecondition: 400, codes.ResourceExhausted: 429,
}

// sameRefusal asserts the HTTP refusal (code, body) is the gRPC refusal
// grpcErr: the HTTP status of its code, and a google.rpc.Status body with
// the same code and the same ErrorInfo (reason and parameters).
func sameRefusal(t testing.TB, what string, grpcErr error, code int, body []byte) {
	t.Helper()
	want := status.Convert(grpcErr)
	if grpcErr == nil || want.Code() == codes.OK {
		t.Fatalf("%s: gRPC did not refuse", what)
	}
	if code != httpStatusOf[want.Code()] {
		t.Fatalf("%s: HTTP %d, want %d for %s; body %s", what, code, httpStatusOf[want.Code()], want.Code(), body)
	}
	var got spb.Status
	if err := protojson.Unmarshal(body, &got); err != nil {
		t.Fatalf("%s: body is no google.rpc.Status: %v: %s", what, err, body)
	}
	if codes.Code(got.GetCode()) != want.Code() || got.GetMessage() != want.Message() {
		t.Fatalf("%s: body %s, want code %s message %q", what, body, want.Code(), want.Message())
	}
	wantInfo, gotInfo := errorInfo(want.Proto()), errorInfo(&got)
	if wantInfo == nil || !proto.Equal(wantInfo, gotInfo) {
		t.Fatalf("%s: ErrorInfo %v over HTTP, %v over gRPC", what, gotInfo, wantInfo)
	}
}

func errorInfo(st *spb.Status) *errdetails.ErrorInfo {
	for _, d := range st.GetDetails() {
		var info errdetails.ErrorInfo
		if d.MessageIs(&info) && d.UnmarshalTo(&info) == nil {
			return &info
		}
	}
	return nil
}

// TestHTTPJSONAsGRPC: VerifyCertificate, VerifyCertificates, ListNotices
// and an agency's SubmitApplication called as plain HTTP/JSON answer what
// the same calls answer over gRPC, refuse what they refuse (the HTTP
// status of the code, the ErrorInfo in the body) and honour idempotency
// keys alike.
func TestHTTPJSONAsGRPC(t *testing.T) {
	e := newEnv(t)
	api := e.httpAPI(t) + "/api"
	ctx := context.Background()
	e.clock.Set(time.Date(2027, 3, 1, 2, 0, 0, 0, time.UTC))
	fixture.Stock(t, e.cs, "110", 2027, 10, 0)
	bj := fixture.Agency("110")
	var numbers []string
	for i, rank := range []string{"1d", "2d", "5d"} {
		p := fixture.Player(t, e.reg, "110", fmt.Sprintf("棋手%d", i), "", "1990-01-01", i)
		a, err := e.cs.Apply(ctx, bj, "", certs.ApplicationInput{PlayerID: p.ID, TargetRank: rank, Basis: "tournament", EventID: fixture.Earned(t, e.ts, rank, p.ID)})
		if err != nil {
			t.Fatal(err)
		}
		if a, err = e.cs.Approve(ctx, bj, "", a.ID); err != nil {
			t.Fatal(err)
		}
		numbers = append(numbers, a.CertificateNumber)
	}

	// one certificate, by its number as typed
	for _, n := range []string{numbers[0], numbers[1][:3] + "-" + numbers[1][3:5] + "-" + numbers[1][5:]} { // as typed, with dashes
		want, err := e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: n})
		if err != nil || !want.GetFound() {
			t.Fatalf("gRPC verify %s: %v %v", n, want, err)
		}
		var got pb.VerifyCertificateResponse
		code, body := call(t, "GET", api+"/v1/certificates/"+n, nil)
		answer(t, "verify "+n, code, body, &got)
		if !proto.Equal(&got, want) {
			t.Fatalf("verify %s over HTTP:\n%v\nover gRPC:\n%v", n, &got, want)
		}
	}
	// an RPC without a REST path of its own answers a POST to its name
	wantQuota, err := e.certs.GetQuota(e.as(e.bj), &pb.GetQuotaRequest{Year: 2027})
	if err != nil {
		t.Fatal(err)
	}
	var gotQuota pb.GetQuotaResponse
	code, body := call(t, "POST", api+"/dankyu.v1.CertificateService/GetQuota", `{"year":2027}`, "Authorization", "Bearer "+e.bj)
	answer(t, "quota by POST", code, body, &gotQuota)
	if !proto.Equal(&gotQuota, wantQuota) || gotQuota.GetDanUsed() != 2 {
		t.Fatalf("quota by POST:\n%v\nover gRPC:\n%v", &gotQuota, wantQuota)
	}
	_, grpcErr := e.certs.RevokeCertificate(e.as(e.bj), &pb.RevokeCertificateRequest{Number: numbers[0], Reason: "x"})
	code, body = call(t, "POST", api+"/dankyu.v1.CertificateService/RevokeCertificate", `{"number":"`+numbers[0]+`","reason":"x"}`, "Authorization", "Bearer "+e.bj)
	sameRefusal(t, "an agency revoking", grpcErr, code, body)
	_, grpcErr = e.certs.VerifyCertificate(ctx, &pb.VerifyCertificateRequest{Number: "1102700"})
	code, body = call(t, "GET", api+"/v1/certificates/1102700", nil)
	sameRefusal(t, "malformed number", grpcErr, code, body)

	// a batch, in the order sent
	batch := &pb.VerifyCertificatesRequest{Claims: []*pb.CertificateClaim{
		{Number: numbers[1], Name: "棋手1"}, {Number: "110279999"}, {Number: numbers[0], Name: "冒名者"}, {Number: "11027"}}}
	wantBatch, err := e.certs.VerifyCertificates(ctx, batch)
	if err != nil {
		t.Fatal(err)
	}
	var gotBatch pb.VerifyCertificatesResponse
	code, body = call(t, "POST", api+"/v1/certificates:verifyBatch", batch)
	answer(t, "batch", code, body, &gotBatch)
	if !proto.Equal(&gotBatch, wantBatch) {
		t.Fatalf("batch over HTTP:\n%v\nover gRPC:\n%v", &gotBatch, wantBatch)
	}
	for i, v := range gotBatch.GetVerdicts() {
		if v.GetClaim().GetNumber() != batch.GetClaims()[i].GetNumber() {
			t.Fatalf("verdict %d is of %s, sent %s", i, v.GetClaim().GetNumber(), batch.GetClaims()[i].GetNumber())
		}
	}
	if gotBatch.GetVerdicts()[0].GetVerdict() != pb.Verdict_VERDICT_VALID || gotBatch.GetVerdicts()[2].GetVerdict() != pb.Verdict_VERDICT_OTHER_HOLDER {
		t.Fatalf("batch verdicts: %v", &gotBatch)
	}
	tooMany := &pb.VerifyCertificatesRequest{Claims: make([]*pb.CertificateClaim, certs.MaxBatch+1)}
	for i := range tooMany.Claims {
		tooMany.Claims[i] = &pb.CertificateClaim{Number: "110270001"}
	}
	_, grpcErr = e.certs.VerifyCertificates(ctx, tooMany)
	code, body = call(t, "POST", api+"/v1/certificates:verifyBatch", tooMany)
	sameRefusal(t, "a batch over the maximum", grpcErr, code, body)

	// the current notices of a province, by query parameters
	list := &pb.ListNoticesRequest{ProvinceCode: "11", State: "current"}
	wantList, err := e.notices.ListNotices(ctx, list)
	if err != nil || len(wantList.GetNotices()) != 1 {
		t.Fatalf("gRPC notices: %v %v", wantList, err)
	}
	for _, q := range []string{"province_code=11&state=current", "provinceCode=11&state=current"} {
		var gotList pb.ListNoticesResponse
		code, body = call(t, "GET", api+"/v1/notices?"+q, nil)
		answer(t, "notices ?"+q, code, body, &gotList)
		if !proto.Equal(&gotList, wantList) {
			t.Fatalf("notices ?%s over HTTP:\n%v\nover gRPC:\n%v", q, &gotList, wantList)
		}
	}
	// an objection over HTTP is the client address's, as over gRPC
	notice := wantList.GetNotices()[0].GetId()
	var lodged pb.LodgeObjectionResponse
	code, body = call(t, "POST", fmt.Sprintf("%s/v1/notices/%d/objections", api, notice), `{"name":"赵","contact":"139","reason":"代打"}`)
	answer(t, "objection", code, body, &lodged)
	obs, err := e.notices.ListObjections(e.as(e.staff), &pb.ListObjectionsRequest{NoticeId: notice})
	if err != nil || len(obs.GetObjections()) != 1 || obs.GetObjections()[0].GetAddress() != "127.0.0.1" || obs.GetObjections()[0].GetId() != lodged.GetId() {
		t.Fatalf("the objection lodged over HTTP: %v %v", obs, err)
	}
	var none pb.ListNoticesResponse
	code, body = call(t, "GET", api+"/v1/notices?province_code=31&state=current", nil)
	answer(t, "another province's notices", code, body, &none)
	if len(none.GetNotices()) != 0 {
		t.Fatalf("Shanghai's notices: %v", &none)
	}
	_, grpcErr = e.notices.ListNotices(ctx, &pb.ListNoticesRequest{State: "someday"})
	code, body = call(t, "GET", api+"/v1/notices?state=someday", nil)
	sameRefusal(t, "a state no notice has", grpcErr, code, body)

	// an agency's application: refusals as over gRPC, and a retry with the
	// same key answers the first answer and files nothing twice
	p := fixture.Player(t, e.reg, "110", "新人", "", "2000-02-02", 9)
	submit := &pb.SubmitApplicationRequest{PlayerId: p.ID, TargetRank: "1d", Basis: pb.Basis_BASIS_TOURNAMENT, EventId: fixture.Earned(t, e.ts, "1d", p.ID)}
	_, grpcErr = e.certs.SubmitApplication(ctx, submit)
	code, body = call(t, "POST", api+"/v1/applications", submit)
	sameRefusal(t, "the public applying", grpcErr, code, body)
	sixDan := &pb.SubmitApplicationRequest{PlayerId: p.ID, TargetRank: "6d", Basis: pb.Basis_BASIS_NATIONAL_RESULT, EventId: 1}
	_, grpcErr = e.certs.SubmitApplication(e.as(e.bj), sixDan)
	code, body = call(t, "POST", api+"/v1/applications", sixDan, "Authorization", "Bearer "+e.bj)
	sameRefusal(t, "an agency applying for 6 dan", grpcErr, code, body)
	_, grpcErr = e.certs.SubmitApplication(e.as("dk_not_a_token"), submit)
	code, body = call(t, "POST", api+"/v1/applications", submit, "Authorization", "Bearer dk_not_a_token")
	sameRefusal(t, "an unknown token", grpcErr, code, body)

	var first, again pb.SubmitApplicationResponse
	code, body = call(t, "POST", api+"/v1/applications", submit, "Authorization", "Bearer "+e.bj, "Idempotency-Key", "http-apply-1")
	answer(t, "apply", code, body, &first)
	code, body = call(t, "POST", api+"/v1/applications", submit, "Authorization", "Bearer "+e.bj, "Idempotency-Key", "http-apply-1")
	answer(t, "apply again", code, body, &again)
	if first.GetApplication().GetId() == 0 || !proto.Equal(&first, &again) {
		t.Fatalf("retried application: %v, first %v", &again, &first)
	}
	got, err := e.certs.GetApplication(e.as(e.bj), &pb.GetApplicationRequest{Id: first.GetApplication().GetId()})
	if err != nil || !proto.Equal(got.GetApplication(), first.GetApplication()) {
		t.Fatalf("the application over gRPC: %v %v; over HTTP %v", got, err, &first)
	}
	apps, err := e.certs.ListApplications(e.as(e.bj), &pb.ListApplicationsRequest{AgencyPrefix: "110"})
	if err != nil {
		t.Fatal(err)
	}
	filed := 0
	for _, a := range apps.GetApplications() {
		if a.GetPlayerId() == p.ID {
			filed++
		}
	}
	if filed != 1 {
		t.Fatalf("%d applications of the player after a retry, want 1", filed)
	}
	// the same key with another request is refused as over gRPC
	other := proto.Clone(submit).(*pb.SubmitApplicationRequest)
	other.TargetRank = "2d"
	_, grpcErr = e.certs.SubmitApplication(e.as(e.bj, "idempotency-key", "http-apply-1"), other)
	code, body = call(t, "POST", api+"/v1/applications", other, "Authorization", "Bearer "+e.bj, "Idempotency-Key", "http-apply-1")
	sameRefusal(t, "a reused idempotency key", grpcErr, code, body)
	if reasonOf(grpcErr) != "IDEMPOTENCY_KEY_REUSED" {
		t.Fatalf("reused key over gRPC: %v", grpcErr)
	}
}

// TestHTTPBatchSpendsPerNumber: over HTTP as over gRPC, an anonymous
// batch spends one unit of the address's verification budget per number.
func TestHTTPBatchSpendsPerNumber(t *testing.T) {
	e := newEnvConfig(t, server.Config{RateVerify: "5/1m"})
	api := e.httpAPI(t) + "/api"
	batch := func(n int) (int, []byte) {
		claims := make([]string, n)
		for i := range claims {
			claims[i] = `{"number":"110990001"}`
		}
		return call(t, "POST", api+"/v1/certificates:verifyBatch", `{"claims":[`+strings.Join(claims, ",")+`]}`)
	}
	if code, body := batch(4); code != 200 {
		t.Fatalf("4 of 5: %d %s", code, body)
	}
	if code, body := batch(2); code != 429 || !strings.Contains(string(body), `"RATE_LIMITED"`) {
		t.Fatalf("2 more against the last 1: %d %s; want 429 RATE_LIMITED", code, body)
	}
	if code, body := call(t, "GET", api+"/v1/certificates/110990001", nil); code != 200 {
		t.Fatalf("the 5th number: %d %s", code, body)
	}
	if code, body := call(t, "GET", api+"/v1/certificates/110990001", nil); code != 429 {
		t.Fatalf("the 6th number: %d %s", code, body)
	}
}

// TestOpenAPIServed: /api/openapi.json is the generated document, naming
// the REST paths of the protos' google.api.http rules under /api.
func TestOpenAPIServed(t *testing.T) {
	e := newEnv(t)
	code, body := call(t, "GET", e.httpAPI(t)+"/api/openapi.json", nil)
	if code != 200 || !bytes.Equal(body, httpapi.OpenAPI) {
		t.Fatalf("openapi.json: %d", code)
	}
	var doc struct {
		Swagger  string
		BasePath string
		Paths    map[string]map[string]json.RawMessage
	}
	if err := json.Unmarshal(body, &doc); err != nil {
		t.Fatal(err)
	}
	for path, method := range map[string]string{"/v1/certificates/{number}": "get", "/v1/certificates:verifyBatch": "post",
		"/v1/notices": "get", "/v1/applications": "post", "/dankyu.v1.CertificateService/RevokeCertificate": "post"} {
		if _, ok := doc.Paths[path][method]; !ok {
			t.Errorf("openapi.json has no %s %s", method, path)
		}
	}
	if doc.Swagger != "2.0" || doc.BasePath != "/api" {
		t.Errorf("openapi.json: swagger %q basePath %q", doc.Swagger, doc.BasePath)
	}
}
