package federation

import (
	"context"
	"maps"
	"slices"
	"time"

	"github.com/nats-io/nats.go"
)

// Role is a daemon's part in a federation.
type Role string

// The roles.
const (
	// RoleHall plays a block of boards of every round the hub pairs and
	// publishes its facts to its hall stream.
	RoleHall Role = "hall"
	// RoleHub pairs the rounds, gathers every hall's facts and keeps the
	// roster; it has no boards.
	RoleHub Role = "hub"
)

// role is what one role does, a function each: check its configuration,
// set up its part of the embedded NATS server, start its parts on the
// connection, and say when it has played its part of the event.
type role struct {
	// check adds the problems of a configuration of the role.
	check func(Config, *problems)
	// server sets up the role's part of the embedded server; it returns
	// the options of the daemon's own client of it.
	server func(*ServerConfig, Options) ([]nats.Option, error)
	// start starts the role's parts on the node's connection.
	start func(context.Context, *Node, Options) error
	// ready reports, once every tournament is played here, whether the
	// others have this daemon's part too; wait bounds how long Done waits
	// for it (0: as long as it takes).
	ready func(context.Context, *Node) (bool, error)
	wait  time.Duration
	// waitingFor says what ready waits for, for the log.
	waitingFor string
	// link makes the watcher of the role's links.
	link func(*Node) linker
}

// roles are the roles a daemon may take, by name.
var roles = map[Role]role{
	RoleHall: {check: checkHall, server: hallServer, start: startHall, link: newHallLink,
		ready: hallReady, waitingFor: "the hub has every fact of this hall"},
	RoleHub: {check: checkHub, server: hubServer, start: startHub, link: newHubLinks,
		ready: hubReady, wait: 30 * time.Second, waitingFor: "every hall has the last results"},
}

// roleNames are the roles' names, sorted, for messages.
func roleNames() []string {
	names := slices.Sorted(maps.Keys(roles))
	out := make([]string, len(names))
	for i, n := range names {
		out[i] = string(n)
	}
	return out
}
