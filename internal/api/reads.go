package api

import (
	"context"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
)

// CertReads runs a public read on the certificates service of a database
// the public reads from (a replica in rotation, else the primary).
type CertReads interface {
	Read(ctx context.Context, read func(*certs.Service) error) error
}

// ReadFrom sends the public's verifications and certificate lists through r.
func (s *CertificateServer) ReadFrom(r CertReads) *CertificateServer { s.reads = r; return s }

// ReadFrom sends the public's notice reads through r.
func (s *NoticeServer) ReadFrom(r CertReads) *NoticeServer { s.reads = r; return s }

// publicRead runs read on a replica for the public and on the primary's
// service for a signed-in caller, who reads what they wrote.
func publicRead[R any](ctx context.Context, primary *certs.Service, reads CertReads, read func(*certs.Service) (R, error)) (R, error) {
	if reads == nil || ActorFrom(ctx).Kind != ledger.Public {
		return read(primary)
	}
	var out R
	err := reads.Read(ctx, func(cs *certs.Service) error {
		var err error
		out, err = read(cs)
		return err
	})
	return out, err
}
