package web

import (
	"crypto/hmac"
	"crypto/sha256"
	"encoding/base64"
	"net/http"

	"github.com/dankyu/dankyu/certs"
	"github.com/dankyu/dankyu/ledger"
)

// certLinks are the links a printed certificate's QR code leads to:
// /c/NUMBER/TOKEN, the certificate's online status with the holder's name
// shown, as the paper itself shows it. The token is derived from the
// number with a secret shared by every server process, so no table holds
// it and nobody without the paper can walk the numbers to read minors'
// names (the bare /verify?number= withholds those).
type certLinks struct {
	secret    []byte
	publicURL string
}

// linkTokenSize is the token's bytes before encoding: 120 bits, 20
// characters, short enough for the QR code to stay easy to scan.
const linkTokenSize = 15

// token is the certificate number's link token.
func (l certLinks) token(number string) string {
	m := hmac.New(sha256.New, l.secret)
	m.Write([]byte("certificate-link\x00"))
	m.Write([]byte(number))
	return base64.RawURLEncoding.EncodeToString(m.Sum(nil)[:linkTokenSize])
}

// url is the link of a certificate number, on the portal at base.
func (l certLinks) url(base, number string) string {
	return base + "/c/" + number + "/" + l.token(number)
}

// check reports whether token is the number's.
func (l certLinks) check(number, token string) bool {
	return len(l.secret) > 0 && hmac.Equal([]byte(token), []byte(l.token(number)))
}

// certificateLink is a printed certificate's online status: the public
// verification of its number, with the holder named even when a minor,
// since whoever holds the link holds the paper. A wrong token is not
// found, as a number nobody was issued.
func (p *certPages) certificateLink(w http.ResponseWriter, r *http.Request) {
	n, err := certs.ParseNumber(r.PathValue("number"))
	if err != nil || !p.links.check(n.String(), r.PathValue("token")) {
		p.Fail(w, r, ledger.ErrNotFound)
		return
	}
	w.Header().Set("Referrer-Policy", "no-referrer")
	w.Header().Set("X-Robots-Tag", "noindex")
	p.showVerification(w, r, n.String(), "", true)
}
