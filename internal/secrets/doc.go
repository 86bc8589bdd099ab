// Package secrets finds authentication material in text and redacts it, so
// that credentials that reached an agent's memory are never published in the
// vault, the site or the search index, and never promoted by a dream
// (DESIGN 5.6).
//
// The list of what counts as a secret is exhaustive and deliberately short:
// private key blocks, a handful of well-known cloud and API key formats, bearer
// tokens and JWTs, passwords written as "password: x"-style lines, and
// credentials inside URLs. This package is not a privacy classifier. Names,
// addresses, hostnames, IP addresses, hashes and everything else outside the
// list never raise a finding, because an alert about ordinary content has
// nowhere to go and teaches people to skim past the alert that matters.
//
// Detection is one left-to-right pass over the bytes. Cheap triggers (the
// first byte of a known prefix, at the start of a word) gate every more
// expensive check, and no regular expression is involved, so scanning
// megabytes of logs costs milliseconds.
//
// The package never stores, logs or prints a secret value: a Finding carries
// byte offsets and a masked preview only. It never panics on any input.
package secrets
