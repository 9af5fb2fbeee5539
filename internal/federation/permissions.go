package federation

import (
	"time"

	"github.com/nats-io/nats-server/v2/server"
)

// DeliverPrefix is the prefix of the subjects on which a hall's stream is
// delivered to the hub's (sourced with this prefix and the hall's name),
// so that a hall can only send its own.
const DeliverPrefix = "arbiter-deliver"

// HallPermissions are the subjects a hall's leaf node link may use on the
// hub (nats-server checks both what the hall sends and what it asks to
// receive against Publish): its own facts, its own stream's deliveries and
// mirror deliveries (DeliverPrefix), its own JetStream API (the hub
// sourcing its stream), answers to requests, and reading the hub's
// pairings and roster buckets and its own command consumer, and saying
// hello to the hub (LinkSubject). It may not
// send another hall's facts, nor write the pairings or roster buckets or
// the command stream.
func HallPermissions(hall string) *server.Permissions {
	hubAPI := "$JS." + HubDomain + ".API."
	kvStream := "KV_" + PairingsBucket
	rosterStream := "KV_" + RosterBucket
	durable := (&CommandFollower{Hall: hall}).Durable()
	subjects := []string{
		"arbiter." + hall + ".>",
		// Its hellos to the hub (the answers come on _INBOX).
		LinkSubject(hall),
		DeliverPrefix + "." + hall + ".>",
		"$JS." + hall + ".API.>",
		"_INBOX.>", "$JSC.R.>", "$JS.FC.>", "$JS.ACK.>",
		// The hall's mirror of the pairings bucket reads it through a
		// consumer of the hub's.
		hubAPI + "CONSUMER.CREATE." + kvStream, hubAPI + "CONSUMER.CREATE." + kvStream + ".>",
		hubAPI + "CONSUMER.DELETE." + kvStream + ".>",
		hubAPI + "STREAM.INFO." + kvStream,
		// And so does its mirror of the roster bucket.
		hubAPI + "CONSUMER.CREATE." + rosterStream, hubAPI + "CONSUMER.CREATE." + rosterStream + ".>",
		hubAPI + "CONSUMER.DELETE." + rosterStream + ".>",
		hubAPI + "STREAM.INFO." + rosterStream,
		// The hall's own consumer of its commands.
		hubAPI + "CONSUMER.CREATE." + CommandStream + "." + durable + ".>",
		hubAPI + "CONSUMER.DURABLE.CREATE." + CommandStream + "." + durable,
		hubAPI + "CONSUMER.INFO." + CommandStream + "." + durable,
		hubAPI + "CONSUMER.MSG.NEXT." + CommandStream + "." + durable,
		hubAPI + "INFO",
	}
	return &server.Permissions{
		Publish:   &server.SubjectPermission{Allow: subjects},
		Subscribe: &server.SubjectPermission{Allow: subjects},
		// Answers to the hub's requests (its JetStream API calls).
		Response: &server.ResponsePermission{MaxMsgs: 1, Expires: time.Minute},
	}
}
