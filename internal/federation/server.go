package federation

import (
	"context"
	"crypto/tls"
	"errors"
	"fmt"
	"log/slog"
	"maps"
	"net"
	"net/url"
	"slices"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
	"golang.org/x/crypto/bcrypt"
)

// ServerConfig describes an embedded NATS server with JetStream.
type ServerConfig struct {
	// Name is the server's name (the hall name, or "hub").
	Name string
	// Listen is the client address, host:port ("127.0.0.1:4222"); port 0
	// or -1 picks a free one.
	Listen string
	// StoreDir is where JetStream keeps its streams.
	StoreDir string
	// NoJetStream runs the server without JetStream (a preflight's
	// server only links and relays): no StoreDir, no Domain.
	NoJetStream bool
	// Domain is the JetStream domain: each hall has its own, so that the
	// hub reaches a hall's streams as "$JS.<domain>.API".
	Domain string
	// LeafListen (hub) accepts the halls' leaf node connections.
	LeafListen string
	// LeafRemotes (hall) are the hub's leaf node URLs
	// ("nats-leaf://east:secret@hub.example:7422": the user and password
	// are the hall's credentials).
	LeafRemotes []string
	// HallUsers (hub) are the halls' passwords (or bcrypt hashes), by hall
	// name, for their leaf node links: each hall may then use only its own
	// subjects (HallPermissions). None: any hall may connect and use any
	// subject.
	HallUsers map[string]string
	// LocalPassword (hub with HallUsers) is the password of LocalUser, the
	// hub daemon's own client, which may use every subject.
	LocalPassword string
	// LeafTLS is the TLS of the leaf node port (hub) or of the link to it
	// (hall); nil: none.
	LeafTLS *tls.Config
	// Log, if set, receives the server's log, each line at its level
	// (nil: the server logs nothing); Watch, if set, is given each line
	// too, as it is logged.
	Log   *slog.Logger
	Watch func(level slog.Level, line string)
}

// LocalUser is the user of the hub daemon's own client on a hub server
// with the halls' users.
const LocalUser = "arbiter"

// StartServer starts an embedded NATS server and waits until it accepts
// clients.
func StartServer(c ServerConfig) (*server.Server, error) {
	host, port, err := splitHostPort(c.Listen)
	if err != nil {
		return nil, fmt.Errorf("nats server %s: listen: %w", c.Name, err)
	}
	if c.StoreDir == "" && !c.NoJetStream {
		return nil, fmt.Errorf("nats server %s: no JetStream store directory", c.Name)
	}
	opts := &server.Options{
		ServerName:      c.Name,
		Host:            host,
		Port:            port,
		JetStream:       !c.NoJetStream,
		JetStreamDomain: c.Domain,
		StoreDir:        c.StoreDir,
		NoSigs:          true,
		NoLog:           true,
	}
	if c.Log != nil || c.Watch != nil {
		opts.NoLog = false
	}
	if c.LeafListen != "" {
		h, p, err := splitHostPort(c.LeafListen)
		if err != nil {
			return nil, fmt.Errorf("nats server %s: leaf listen: %w", c.Name, err)
		}
		opts.LeafNode.Host, opts.LeafNode.Port = h, p
		opts.LeafNode.TLSConfig = c.LeafTLS
		// The halls reach the hub at the address they were given (through
		// a proxy or a NAT, maybe), not at the one it listens on.
		opts.LeafNode.NoAdvertise = true
	}
	// The halls' users are the server's users (a leaf node's permissions
	// come from them), with the daemon's own.
	if len(c.HallUsers) > 0 {
		if c.LocalPassword == "" {
			return nil, fmt.Errorf("nats server %s: halls' users without a password for the hub's own client", c.Name)
		}
		// Stored hashed, as the halls' are: the server warns of a
		// password in plain text.
		local, err := bcrypt.GenerateFromPassword([]byte(c.LocalPassword), bcrypt.MinCost)
		if err != nil {
			return nil, fmt.Errorf("nats server %s: %w", c.Name, err)
		}
		opts.Users = []*server.User{{Username: LocalUser, Password: string(local)}}
		for _, hall := range slices.Sorted(maps.Keys(c.HallUsers)) {
			if err := ValidName(hall); err != nil || hall == LocalUser {
				return nil, fmt.Errorf("nats server %s: hall user %q: not a hall name", c.Name, hall)
			}
			opts.Users = append(opts.Users, &server.User{Username: hall, Password: c.HallUsers[hall], Permissions: HallPermissions(hall)})
		}
	}
	for _, r := range c.LeafRemotes {
		u, err := url.Parse(r)
		if err != nil {
			// The error repeats the URL, which may hold a password.
			return nil, fmt.Errorf("nats server %s: a leaf remote is not a URL", c.Name)
		}
		opts.LeafNode.Remotes = append(opts.LeafNode.Remotes, &server.RemoteLeafOpts{URLs: []*url.URL{u},
			TLS: c.LeafTLS != nil, TLSConfig: c.LeafTLS})
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("nats server %s: %w", c.Name, err)
	}
	if !opts.NoLog {
		debug := c.Log != nil && c.Log.Enabled(context.Background(), slog.LevelDebug)
		s.SetLoggerV2(serverLog{log: c.Log, watch: c.Watch}, debug, false, false)
	}
	s.Start()
	if !s.ReadyForConnections(10 * time.Second) {
		s.Shutdown()
		return nil, fmt.Errorf("nats server %s: not ready for connections after 10s", c.Name)
	}
	return s, nil
}

func splitHostPort(addr string) (string, int, error) {
	if addr == "" {
		return "", 0, errors.New("no address")
	}
	h, p, err := net.SplitHostPort(addr)
	if err != nil {
		return "", 0, err
	}
	port, err := strconv.Atoi(p)
	if err != nil || port < -1 || port > 65535 {
		return "", 0, fmt.Errorf("bad port %q in %q", p, addr)
	}
	if port == 0 {
		port = -1
	}
	return h, port, nil
}
