// Package archtest holds tests of the code's shape rather than its
// behaviour: rules every package must keep, checked by reading the source.
package archtest
