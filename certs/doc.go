// Package certs will hold dan/kyu certificates: the December ordering window
// and quotas, applications, 9-digit numbering (PPP YY SSSS), public notice and
// objections, issuance, verification and revocation. Not built yet: see the
// roadmap in the project's shared spec.
package certs
