// Package configs holds the shipped configuration: arbiter.yaml, the
// embedded default that runs the demo event when no configuration is given,
// and the commented reference for real events.
package configs

import _ "embed"

// Default is the text of arbiter.yaml.
//
//go:embed arbiter.yaml
var Default []byte
