package federation_test

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/tls"
	"crypto/x509"
	"crypto/x509/pkix"
	"encoding/json"
	"fmt"
	"math/big"
	"net"
	"path/filepath"
	"strconv"
	"testing"
	"time"

	"github.com/nats-io/nats.go/jetstream"
	"github.com/stretchr/testify/assert"
	"github.com/stretchr/testify/require"

	"arbiter/internal/federation"
	"arbiter/store"
)

// testCA makes a certificate authority and a certificate it signed for
// 127.0.0.1: the hub's TLS, and the pool a hall trusts.
func testCA(t *testing.T) (server tls.Certificate, pool *x509.CertPool) {
	t.Helper()
	caKey, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	ca := &x509.Certificate{SerialNumber: big.NewInt(1), Subject: pkix.Name{CommonName: "arbiter test CA"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour), IsCA: true,
		KeyUsage: x509.KeyUsageCertSign, BasicConstraintsValid: true}
	caDER, err := x509.CreateCertificate(rand.Reader, ca, ca, &caKey.PublicKey, caKey)
	require.NoError(t, err)
	caCert, err := x509.ParseCertificate(caDER)
	require.NoError(t, err)
	key, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	require.NoError(t, err)
	leaf := &x509.Certificate{SerialNumber: big.NewInt(2), Subject: pkix.Name{CommonName: "hub"},
		NotBefore: time.Now().Add(-time.Hour), NotAfter: time.Now().Add(time.Hour),
		KeyUsage: x509.KeyUsageDigitalSignature, ExtKeyUsage: []x509.ExtKeyUsage{x509.ExtKeyUsageServerAuth},
		IPAddresses: []net.IP{net.ParseIP("127.0.0.1")}}
	der, err := x509.CreateCertificate(rand.Reader, leaf, caCert, &key.PublicKey, caKey)
	require.NoError(t, err)
	pool = x509.NewCertPool()
	pool.AddCert(caCert)
	return tls.Certificate{Certificate: [][]byte{der}, PrivateKey: key}, pool
}

// startSecureTopology is startTopology with each hall's credentials and
// subject permissions on the hub, over TLS signed by a test CA.
func startSecureTopology(t *testing.T, halls ...string) *topology {
	t.Helper()
	dir := t.TempDir()
	cert, pool := testCA(t)
	leaf := freePort(t)
	users := map[string]string{}
	for _, h := range halls {
		users[h] = "secret-of-" + h
	}
	top := &topology{halls: map[string]*node{}}
	top.hub = startNode(t, federation.ServerConfig{Name: "hub", Listen: "127.0.0.1:0", Domain: "hub",
		StoreDir: filepath.Join(dir, "hub"), LeafListen: "127.0.0.1:" + strconv.Itoa(leaf), HallUsers: users, LocalPassword: "hub-secret",
		LeafTLS: &tls.Config{Certificates: []tls.Certificate{cert}, MinVersion: tls.VersionTLS12}})
	var sources []federation.Hall
	for _, h := range halls {
		top.halls[h] = startNode(t, federation.ServerConfig{Name: h, Listen: "127.0.0.1:0", Domain: h,
			StoreDir:    filepath.Join(dir, h),
			LeafRemotes: []string{fmt.Sprintf("tls://%s:%s@127.0.0.1:%d", h, users[h], leaf)},
			LeafTLS:     &tls.Config{RootCAs: pool, MinVersion: tls.VersionTLS12}})
		sources = append(sources, federation.Hall{Name: h, Domain: h})
	}
	require.Eventually(t, func() bool { return top.hub.srv.NumLeafNodes() == len(halls) }, 10*time.Second, 20*time.Millisecond)
	ctx := t.Context()
	for h, n := range top.halls {
		require.NoError(t, federation.EnsureHallStream(ctx, n.js, h))
	}
	require.NoError(t, federation.EnsureHubStream(ctx, top.hub.js, sources))
	return top
}

// With per-hall credentials over TLS, the federation works, and a hall
// cannot send another hall's facts nor write the hub's pairings.
func TestHallCredentialsAndPermissions(t *testing.T) {
	ctx := t.Context()
	top := startSecureTopology(t, "east", "west")
	dir := t.TempDir()
	hub := openDB(t, filepath.Join(dir, "hub.db"))
	tid := setupEvent(t, hub)
	startInbox(t, ctx, hub, top.hub.js, "")
	kv, err := federation.EnsurePairings(ctx, top.hub.js)
	require.NoError(t, err)
	_, err = federation.PublishRound(ctx, kv, "Federated open", paired(tid, 1))
	require.NoError(t, err)
	rkv, err := federation.EnsureRoster(ctx, top.hub.js)
	require.NoError(t, err)
	require.NoError(t, (&federation.RosterWriter{DB: hub, KV: rkv}).Publish(ctx))

	// What each hall may do works: its facts reach the hub, the rounds
	// reach it.
	east := openDB(t, filepath.Join(dir, "east.db"))
	setupEvent(t, east)
	g := startGame(t, east, tid, 1, 1)
	playMoves(t, east, g, 1, 4)
	_, err = (&federation.Outbox{DB: east, JS: top.halls["east"].js, Hall: "east"}).Flush(ctx)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(hubMoves(t, hub, tid, 1, 1)) == 4 }, 10*time.Second, 20*time.Millisecond,
		"east's moves reach the hub")
	mirror, err := federation.MirrorPairings(ctx, top.halls["east"].js, "east", federation.HubDomain)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, err := mirror.Get(ctx, federation.RoundKey(tid, 1))
		return err == nil
	}, 10*time.Second, 20*time.Millisecond, "round 1 reaches east")
	roster, err := federation.MirrorRoster(ctx, top.halls["east"].js, "east", federation.HubDomain)
	require.NoError(t, err)
	require.Eventually(t, func() bool {
		_, err := roster.Get(ctx, federation.PlayersKey(tid))
		return err == nil
	}, 10*time.Second, 20*time.Millisecond, "the players reach east")
	require.Eventually(t, func() bool {
		delivered, err := federation.RosterDelivered(ctx, top.hub.js, []federation.Hall{{Name: "east", Domain: "east"}})
		return err == nil && delivered
	}, 10*time.Second, 20*time.Millisecond, "the hub sees east's mirror has the roster")

	// East writes west's facts: they reach neither west's stream nor the
	// hub.
	westGame := store.Game{ID: 7, TournamentID: tid, Round: 1, BoardNo: 2, Game: "chess", FirstID: 3, SecondID: 4, Started: wall}
	forged := federation.Fact{Kind: federation.KindGame, Hall: "west", GameID: 7, Game: &westGame}
	data, err := jsonFact(forged)
	require.NoError(t, err)
	require.NoError(t, top.halls["east"].nc.Publish(federation.Subject("west", westGame), data))
	require.NoError(t, top.halls["east"].nc.Flush())
	// East writes the pairings: the mirror's put goes to the hub's bucket
	// and is refused, and so is a raw publish to the bucket's subject.
	_, err = mirror.Put(ctx, federation.RoundKey(tid, 2), []byte(`{"round":{"tournament":1,"number":2}}`))
	require.Error(t, err, "a hall cannot write the hub's pairings")
	require.NoError(t, top.halls["east"].nc.Publish("$KV."+federation.PairingsBucket+"."+federation.RoundKey(tid, 3), []byte(`{}`)))
	require.NoError(t, top.halls["east"].nc.Flush())
	// Nor the roster.
	_, err = roster.Put(ctx, federation.PlayersKey(tid), []byte(`{}`))
	require.Error(t, err, "a hall cannot write the hub's roster")
	require.NoError(t, top.halls["east"].nc.Publish("$KV."+federation.RosterBucket+"."+federation.ResultsKey(tid, 1), []byte(`{}`)))
	require.NoError(t, top.halls["east"].nc.Flush())
	// Nor the command stream.
	require.NoError(t, top.halls["east"].nc.Publish(federation.CommandSubject("west", federation.CmdResolveAlert), []byte(`{}`)))
	require.NoError(t, top.halls["east"].nc.Flush())

	// A control message from west itself, which must arrive, shows the
	// forged ones had their chance.
	west := openDB(t, filepath.Join(dir, "west.db"))
	setupEvent(t, west)
	wg := startGame(t, west, tid, 1, 2)
	playMoves(t, west, wg, 1, 2)
	_, err = (&federation.Outbox{DB: west, JS: top.halls["west"].js, Hall: "west"}).Flush(ctx)
	require.NoError(t, err)
	require.Eventually(t, func() bool { return len(hubMoves(t, hub, tid, 1, 2)) == 2 }, 10*time.Second, 20*time.Millisecond)

	ws, err := top.halls["west"].js.Stream(ctx, federation.HallStream("west"))
	require.NoError(t, err)
	info, err := ws.Info(ctx)
	require.NoError(t, err)
	assert.Equal(t, uint64(3), info.State.Msgs, "west's stream holds west's facts only")
	_, err = kv.Get(ctx, federation.RoundKey(tid, 2))
	assert.ErrorIs(t, err, jetstream.ErrKeyNotFound)
	_, err = kv.Get(ctx, federation.RoundKey(tid, 3))
	assert.ErrorIs(t, err, jetstream.ErrKeyNotFound)
	e, err := rkv.Get(ctx, federation.PlayersKey(tid))
	require.NoError(t, err)
	assert.Equal(t, uint64(1), e.Revision(), "the hub's players are as the hub wrote them")
	e, err = rkv.Get(ctx, federation.ResultsKey(tid, 1))
	require.NoError(t, err)
	assert.JSONEq(t, `{"tournamentId":1,"tournament":"Federated open","round":1,"boards":[]}`, string(e.Value()))
	cs, err := top.hub.js.Stream(ctx, federation.CommandStream)
	if err == nil {
		ci, err := cs.Info(ctx)
		require.NoError(t, err)
		assert.Zero(t, ci.State.Msgs)
	}
	alerts, err := hub.Alerts(false)
	require.NoError(t, err)
	assert.Empty(t, alerts, "nothing forged reached the hub")
}

func jsonFact(f federation.Fact) ([]byte, error) { return json.Marshal(f) }
