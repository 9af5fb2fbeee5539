package config

import (
	"testing"
	"time"

	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"
)

func TestBackupSettings(t *testing.T) {
	c, err := Load("", nil)
	require.NoError(t, err)
	assert.Empty(t, c.Backup.Dir, "automatic backups are off by default")
	assert.Equal(t, 10*time.Minute, c.Backup.Every)
	assert.Equal(t, 24, c.Backup.Keep)

	c.Backup = Backup{Dir: "/var/backups/arbiter", Every: 0, Keep: 0}
	var keys []string
	for _, p := range c.Validate() {
		keys = append(keys, p.Key)
	}
	assert.Contains(t, keys, "backup.every")
	assert.Contains(t, keys, "backup.keep")
}
