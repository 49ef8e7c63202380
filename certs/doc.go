// Package certs holds dan and kyu certificates: the December stock orders and
// their quotas, appraisers, applications, the public notice (公示) of 4–7 dan
// with its objections, the 9-digit numbering, issuance, revocation and
// verification. Pure rules live in numbering.go, window.go and
// eligibility.go; the rest keeps them in PostgreSQL through the registry's
// transaction and event-log discipline.
package certs
