// Package httpapi serves the gRPC services as JSON over HTTP/1.1 at /api/:
// connectrpc.com/vanguard transcodes each request into a gRPC call handed
// to the very *grpc.Server that serves gRPC, so every call runs the same
// interceptors (caller, authorization, rate limits, in-flight gates), the
// same handlers and the same refusals. Nothing here decides anything.
//
// Paths: an RPC with a google.api.http rule in its proto answers at that
// rule's path under /api (GET /api/v1/certificates/{number}); every unary RPC
// without one answers at /api/<package>.<Service>/<Method> as a POST of its
// request in JSON. /api/openapi.json is the
// OpenAPI document generated from the protos (buf.gen.yaml).
//
// Headers travel as gRPC metadata: Authorization: Bearer dk_…,
// Idempotency-Key, X-Api-Key, X-Forwarded-For (believed from trusted
// proxies only). A refusal is the HTTP status of its gRPC code with a
// google.rpc.Status body whose details carry google.rpc.ErrorInfo.
package httpapi

import (
	_ "embed"
	"fmt"
	"net/http"
	"strings"

	"connectrpc.com/vanguard"
	"google.golang.org/genproto/googleapis/api/annotations"
	"google.golang.org/grpc"
	"google.golang.org/protobuf/proto"
	"google.golang.org/protobuf/reflect/protodesc"
	"google.golang.org/protobuf/reflect/protoreflect"
	"google.golang.org/protobuf/reflect/protoregistry"
	"google.golang.org/protobuf/types/descriptorpb"
)

// Prefix is where the API answers on the portal's listener.
const Prefix = "/api"

// OpenAPI is the generated OpenAPI (Swagger 2.0) document of every RPC.
//
//go:embed openapi.swagger.json
var OpenAPI []byte

// MaxMessageBytes bounds one request body: the gRPC server's own default
// receive limit, so a call refused for size over gRPC is refused here too.
const MaxMessageBytes = 4 << 20

// New returns the handler of /api/… over gs, whose services must all be
// registered already.
func New(gs *grpc.Server) (http.Handler, error) {
	services, err := services(gs)
	if err != nil {
		return nil, err
	}
	tc, err := vanguard.NewTranscoder(services, vanguard.WithDefaultServiceOptions(
		vanguard.WithTargetProtocols(vanguard.ProtocolGRPC),
		vanguard.WithTargetCodecs(vanguard.CodecProto),
		vanguard.WithMaxMessageBufferBytes(MaxMessageBytes),
		vanguard.WithMaxGetURLBytes(64<<10),
	))
	if err != nil {
		return nil, err
	}
	api := http.StripPrefix(Prefix, tc)
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == Prefix+"/openapi.json" && (r.Method == http.MethodGet || r.Method == http.MethodHead) {
			w.Header().Set("Content-Type", "application/json")
			w.Header().Set("Cache-Control", "public, max-age=300")
			w.Write(OpenAPI)
			return
		}
		api.ServeHTTP(w, r)
	}), nil
}

// services are gs's services as vanguard serves them: each handed to gs
// in gRPC (as vanguardgrpc does), each unary RPC without a google.api.http
// rule of its own given the rule POST /<package>.<Service>/<Method> with
// the request as the body. That is the path the OpenAPI document gives it
// (generate_unbound_methods), answered and refused exactly as the
// annotated paths are. The rules go into a copy of the service's schema:
// vanguard.WithRules matches a selector as a prefix, so a rule for
// RuleObjection would bind RuleObjections too.
func services(gs *grpc.Server) ([]*vanguard.Service, error) {
	var out []*vanguard.Service
	for name := range gs.GetServiceInfo() {
		d, err := protoregistry.GlobalFiles.FindDescriptorByName(protoreflect.FullName(name))
		if err != nil {
			return nil, fmt.Errorf("the schema of %s: %w", name, err)
		}
		sd, ok := d.(protoreflect.ServiceDescriptor)
		if !ok {
			return nil, fmt.Errorf("%s is no service", name)
		}
		if sd, err = withPostRules(sd); err != nil {
			return nil, fmt.Errorf("the HTTP rules of %s: %w", name, err)
		}
		out = append(out, vanguard.NewServiceWithSchema(sd, gs))
	}
	return out, nil
}

// withPostRules is sd with every unary method lacking an HTTP rule given
// the POST rule of its full name.
func withPostRules(sd protoreflect.ServiceDescriptor) (protoreflect.ServiceDescriptor, error) {
	fdp := protodesc.ToFileDescriptorProto(sd.ParentFile())
	changed := false
	for _, svc := range fdp.GetService() {
		if svc.GetName() != string(sd.Name()) {
			continue
		}
		for _, m := range svc.GetMethod() {
			if m.GetClientStreaming() || m.GetServerStreaming() {
				continue // REST has no streams; gRPC serves them
			}
			if m.Options == nil {
				m.Options = &descriptorpb.MethodOptions{}
			}
			if r, _ := proto.GetExtension(m.GetOptions(), annotations.E_Http).(*annotations.HttpRule); r != nil && r.GetPattern() != nil {
				continue
			}
			proto.SetExtension(m.Options, annotations.E_Http, &annotations.HttpRule{
				Pattern: &annotations.HttpRule_Post{Post: "/" + string(sd.FullName()) + "/" + m.GetName()}, Body: "*"})
			changed = true
		}
	}
	if !changed {
		return sd, nil
	}
	fd, err := protodesc.NewFile(fdp, protoregistry.GlobalFiles)
	if err != nil {
		return nil, err
	}
	return fd.Services().ByName(sd.Name()), nil
}

// Mount answers /api/… with api and everything else with next.
func Mount(api, next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if r.URL.Path == Prefix || strings.HasPrefix(r.URL.Path, Prefix+"/") {
			api.ServeHTTP(w, r)
			return
		}
		next.ServeHTTP(w, r)
	})
}
