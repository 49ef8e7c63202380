// Package audit will hold the association's annual audit (年审) of every
// first-level agency: indicators, findings, rulings, and the pass/fail that
// gates next year's certificate stock. Not built yet.
package audit
