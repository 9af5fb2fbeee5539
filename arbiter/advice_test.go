package arbiter

import (
	"strings"
	"testing"

	"github.com/stretchr/testify/assert"
)

// Every alert kind tells the arbiter what to do.
func TestEveryAlertKindHasAdvice(t *testing.T) {
	n := 0
	for k := AlertKind(1); !strings.HasPrefix(k.String(), "AlertKind("); k++ {
		assert.Contains(t, advice, k, "%s has no advice", k)
		n++
	}
	assert.Greater(t, n, 8)
}
