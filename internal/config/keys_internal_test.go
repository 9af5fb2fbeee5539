package config

import (
	"reflect"
	"testing"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
	"go.yaml.in/yaml/v3"
)

// A key added to the structs is known without any list to update: here a
// section and a list like those other changes add (backup, trusted
// proxies), an inlined struct and an untagged field.
func TestKnownKeysFollowTheStructs(t *testing.T) {
	type Backup struct {
		Dir   string `mapstructure:"dir"`
		Every string `mapstructure:"every"`
	}
	type Common struct {
		Shared string `mapstructure:"shared"`
	}
	type extended struct {
		Config  `mapstructure:",squash"`
		Backup  Backup   `mapstructure:"backup"`
		Proxies []string `mapstructure:"trusted_proxies,omitempty"`
		Extra   Common   `mapstructure:"extra"`
		Plain   int
		Skipped string `mapstructure:"-"`
		hidden  int
	}
	_ = extended{}.hidden
	text := `
event: {name: x}
backup:
  dir: /var/backups
  evry: 5m
trusted_proxies: ["10.0.0.1"]
extra: {shared: y}
plain: 3
skipped: z
hidden: 1
source: w
`
	var doc yaml.Node
	require.NoError(t, yaml.Unmarshal([]byte(text), &doc))
	where, ps := checkKeys(&doc, reflect.TypeFor[extended]())
	var unknown []string
	for _, p := range ps {
		unknown = append(unknown, p.Key)
	}
	assert.Equal(t, []string{"backup.evry", "skipped", "hidden", "source"}, unknown)
	assert.Contains(t, ps[0].Why, "did you mean every?")
	assert.Equal(t, 4, where["backup.dir"])
	assert.Equal(t, 6, where["trusted_proxies"])
	assert.Equal(t, 2, where.line("event.name"))

	assert.Subset(t, envKeys(reflect.TypeFor[extended](), ""),
		[]string{"backup.dir", "backup.every", "trusted_proxies", "extra.shared", "plain", "http.listen"})
	assert.NotContains(t, envKeys(reflect.TypeFor[extended](), ""), "tournaments")
}

func TestDistance(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		d    int
	}{
		{"listen", "listen", 0}, {"listne", "listen", 1}, {"pasword", "password", 1},
		{"roundz", "rounds", 1}, {"", "abc", 3}, {"tiebreak", "tiebreaks", 1}, {"kitten", "sitting", 3},
	} {
		assert.Equal(t, tc.d, distance(tc.a, tc.b), "%s/%s", tc.a, tc.b)
	}
}
