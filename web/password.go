package web

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"encoding/hex"
	"errors"
	"fmt"
	"strings"

	"golang.org/x/crypto/argon2"
	"golang.org/x/crypto/bcrypt"
)

// How a console password is stored in the configuration
// (console.users[].password).
type passwordKind int

const (
	plainPassword  passwordKind = iota // the password itself: for a demo on this machine only
	sha256Password                     // "sha256:<hex>", unsalted: kept for old files, for a demo only
	bcryptPassword                     // "$2a$…", "$2b$…" or "$2y$…", as arbiter hash-password prints
	argon2Password                     // "$argon2id$v=19$m=…,t=…,p=…$salt$hash"
)

// HashCost is the bcrypt cost of the hashes HashPassword makes: about
// 150 ms per check on a loaded 2-core machine (BenchmarkCheckPassword),
// paid once per login and slow enough to make a stolen file hard to guess.
const HashCost = 11

// HashPassword returns the bcrypt hash of a console password, for
// console.users[].password.
func HashPassword(password string) (string, error) {
	if password == "" {
		return "", errors.New("the password is empty")
	}
	h, err := bcrypt.GenerateFromPassword([]byte(password), HashCost)
	if errors.Is(err, bcrypt.ErrPasswordTooLong) {
		return "", fmt.Errorf("the password has %d bytes: bcrypt reads at most 72", len(password))
	}
	if err != nil {
		return "", fmt.Errorf("hash the password: %w", err)
	}
	return string(h), nil
}

// argon2Params are the parameters of an argon2id hash.
type argon2Params struct {
	memory  uint32 // KiB
	time    uint32
	threads uint8
	salt    []byte
	hash    []byte
}

// parseArgon2 reads "$argon2id$v=19$m=65536,t=3,p=4$<salt>$<hash>" (salt
// and hash in unpadded standard base64), refusing parameters that would
// let one login take the daemon's memory or minutes of its time.
func parseArgon2(s string) (argon2Params, error) {
	var p argon2Params
	parts := strings.Split(s, "$")
	if len(parts) != 6 || parts[0] != "" || parts[1] != "argon2id" {
		return p, errors.New(`want $argon2id$v=19$m=<KiB>,t=<passes>,p=<threads>$<salt>$<hash>`)
	}
	if parts[2] != "v=19" {
		return p, fmt.Errorf("argon2 version %q: want v=19", parts[2])
	}
	if err := p.parseCost(parts[3]); err != nil {
		return p, err
	}
	if err := p.decodeSaltAndHash(parts[4], parts[5]); err != nil {
		return p, err
	}
	return p, nil
}

// parseCost reads an argon2 hash's "m=65536,t=3,p=4", refusing a cost
// out of bounds.
func (p *argon2Params) parseCost(cost string) error {
	var threads uint32
	if n, err := fmt.Sscanf(cost, "m=%d,t=%d,p=%d", &p.memory, &p.time, &threads); err != nil || n != 3 || fmt.Sprintf("m=%d,t=%d,p=%d", p.memory, p.time, threads) != cost {
		return fmt.Errorf("argon2 parameters %q: want m=<KiB>,t=<passes>,p=<threads>", cost)
	}
	switch {
	case p.memory < 8 || p.memory > 1<<21:
		return fmt.Errorf("argon2 memory m=%d KiB: want 8 to %d", p.memory, 1<<21)
	case p.time < 1 || p.time > 64:
		return fmt.Errorf("argon2 passes t=%d: want 1 to 64", p.time)
	case threads < 1 || threads > 64:
		return fmt.Errorf("argon2 threads p=%d: want 1 to 64", threads)
	}
	p.threads = uint8(threads)
	return nil
}

// decodeSaltAndHash reads an argon2 hash's salt and hash, in unpadded
// standard base64.
func (p *argon2Params) decodeSaltAndHash(salt, hash string) error {
	var err error
	if p.salt, err = base64.RawStdEncoding.DecodeString(salt); err != nil || len(p.salt) < 8 {
		return errors.New("argon2 salt: want at least 8 bytes in unpadded base64")
	}
	if p.hash, err = base64.RawStdEncoding.DecodeString(hash); err != nil || len(p.hash) < 16 || len(p.hash) > 64 {
		return errors.New("argon2 hash: want 16 to 64 bytes in unpadded base64")
	}
	return nil
}

// passwordFormat tells how a configured password is stored, and what is
// wrong with it if it looks like a hash but is not a valid one.
func passwordFormat(configured string) (passwordKind, error) {
	switch {
	case strings.HasPrefix(configured, "$2a$"), strings.HasPrefix(configured, "$2b$"), strings.HasPrefix(configured, "$2y$"):
		if _, err := bcrypt.Cost([]byte(configured)); err != nil {
			return bcryptPassword, fmt.Errorf("not a valid bcrypt hash: %w", err)
		}
		return bcryptPassword, nil
	case strings.HasPrefix(configured, "$argon2"):
		if _, err := parseArgon2(configured); err != nil {
			return argon2Password, err
		}
		return argon2Password, nil
	case strings.HasPrefix(configured, "sha256:"):
		b, err := hex.DecodeString(strings.TrimSpace(strings.TrimPrefix(configured, "sha256:")))
		if err != nil || len(b) != sha256.Size {
			return sha256Password, errors.New("want sha256: and 64 hexadecimal digits")
		}
		return sha256Password, nil
	}
	return plainPassword, nil
}

// checkPassword compares a typed password with a configured one. Hashes
// are compared in constant time; a plain password is hashed on both sides
// first so that neither its length nor its content leaks through timing.
func checkPassword(configured, typed string) bool {
	kind, err := passwordFormat(configured)
	if err != nil {
		return false
	}
	switch kind {
	case bcryptPassword:
		return bcrypt.CompareHashAndPassword([]byte(configured), []byte(typed)) == nil
	case argon2Password:
		p, _ := parseArgon2(configured) // checked by passwordFormat
		got := argon2.IDKey([]byte(typed), p.salt, p.time, p.memory, p.threads, uint32(len(p.hash)))
		return subtle.ConstantTimeCompare(got, p.hash) == 1
	case sha256Password:
		want, _ := hex.DecodeString(strings.TrimSpace(strings.TrimPrefix(configured, "sha256:")))
		got := sha256.Sum256([]byte(typed))
		return subtle.ConstantTimeCompare(got[:], want) == 1
	}
	got, want := sha256.Sum256([]byte(typed)), sha256.Sum256([]byte(configured))
	return subtle.ConstantTimeCompare(got[:], want[:]) == 1
}
