package federation

import (
	"errors"
	"fmt"
	"net"
	"net/url"
	"strconv"
	"time"

	"github.com/nats-io/nats-server/v2/server"
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
	// Domain is the JetStream domain: each hall has its own, so that the
	// hub reaches a hall's streams as "$JS.<domain>.API".
	Domain string
	// LeafListen (hub) accepts the halls' leaf node connections.
	LeafListen string
	// LeafRemotes (hall) are the hub's leaf node URLs
	// ("nats-leaf://hub.example:7422").
	LeafRemotes []string
}

// StartServer starts an embedded NATS server and waits until it accepts
// clients.
func StartServer(c ServerConfig) (*server.Server, error) {
	host, port, err := splitHostPort(c.Listen)
	if err != nil {
		return nil, fmt.Errorf("nats server %s: listen: %w", c.Name, err)
	}
	if c.StoreDir == "" {
		return nil, fmt.Errorf("nats server %s: no JetStream store directory", c.Name)
	}
	opts := &server.Options{
		ServerName:      c.Name,
		Host:            host,
		Port:            port,
		JetStream:       true,
		JetStreamDomain: c.Domain,
		StoreDir:        c.StoreDir,
		NoSigs:          true,
		NoLog:           true,
	}
	if c.LeafListen != "" {
		h, p, err := splitHostPort(c.LeafListen)
		if err != nil {
			return nil, fmt.Errorf("nats server %s: leaf listen: %w", c.Name, err)
		}
		opts.LeafNode.Host, opts.LeafNode.Port = h, p
	}
	for _, r := range c.LeafRemotes {
		u, err := url.Parse(r)
		if err != nil {
			return nil, fmt.Errorf("nats server %s: leaf remote %q: %w", c.Name, r, err)
		}
		opts.LeafNode.Remotes = append(opts.LeafNode.Remotes, &server.RemoteLeafOpts{URLs: []*url.URL{u}})
	}
	s, err := server.NewServer(opts)
	if err != nil {
		return nil, fmt.Errorf("nats server %s: %w", c.Name, err)
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
