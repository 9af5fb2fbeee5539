package main

import (
	"bytes"
	"fmt"
	"io"
	"log/slog"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"arbiter/pairing"
	"arbiter/pairing/generate"
	"arbiter/pairing/tiebreak"
	"arbiter/pairing/trf"
)

// The pairing commands follow the reference engine's command line
// (bbpPairings), so that existing scripts can drive arbiter.

func readTRF(path string) (*trf.Tournament, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	t, err := trf.Parse(data)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	for _, w := range t.Warnings {
		slog.Warn("accepted", "file", path, "warning", w)
	}
	return t, nil
}

// dutchInput checks the engine flag and reads the tournament and the
// options that pair and check share.
func dutchInput(dutch bool, path string, edition2017 bool, colours string) (*trf.Tournament, pairing.Options, error) {
	if !dutch {
		return nil, pairing.Options{}, fmt.Errorf("%w: only --dutch is supported", errUsage)
	}
	t, err := readTRF(path)
	if err != nil {
		return nil, pairing.Options{}, err
	}
	opts, err := pairingOptions(edition2017, colours)
	return t, opts, err
}

func pairingOptions(edition2017 bool, colours string) (pairing.Options, error) {
	opts := pairing.Options{}
	if edition2017 {
		opts.Edition = pairing.Dutch2017
	}
	switch colours {
	case "chess", "":
		opts.Colours = pairing.ChessColours
	case "shogi":
		opts.Colours = pairing.ShogiColours
	case "lot":
		opts.Colours = pairing.FirstPlayerByLot
	default:
		return opts, fmt.Errorf("%w: --colours %q: want chess, shogi or lot", errUsage, colours)
	}
	return opts, nil
}

func newPairCmd() *cobra.Command {
	var (
		dutch, ed2017, explain bool
		out, colours           string
	)
	cmd := &cobra.Command{
		Use:   "pair --dutch IN.trf [-p OUT]",
		Short: "Pair the next round of a Swiss tournament (FIDE Dutch system)",
		Long: `pair reads a tournament report file (TRF16 or TRF26, with the XXR/XXC
extension lines) and pairs its next round by the FIDE Dutch system, 2026
edition (--edition-2017 for older events). The output has the reference
engine's format: the number of pairs, then one "white black" line per board
and "player 0" for the bye. With --explain the engine's reasoning follows on
standard error.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, opts, err := dutchInput(dutch, args[0], ed2017, colours)
			if err != nil {
				return err
			}
			opts.Trace = explain
			p, err := pairing.Pair(t, opts)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			if out != "" {
				var buf bytes.Buffer
				if err := pairing.WritePairs(&buf, p); err != nil {
					return err
				}
				if err := os.WriteFile(out, buf.Bytes(), 0o644); err != nil {
					return err
				}
			} else if err := pairing.WritePairs(w, p); err != nil {
				return err
			}
			if explain && p.Trace != nil {
				fmt.Fprint(cmd.ErrOrStderr(), p.Trace.String())
			}
			return nil
		},
	}
	f := cmd.Flags()
	f.BoolVar(&dutch, "dutch", false, "use the FIDE Dutch system")
	f.BoolVar(&ed2017, "edition-2017", false, "use the 2017 edition of the Dutch rules")
	f.BoolVar(&explain, "explain", false, "print the pairing's explanation")
	f.StringVarP(&out, "output", "p", "", "write the pairs to this file")
	f.StringVar(&colours, "colours", "chess", "colour policy: chess, shogi or lot")
	return cmd
}

func newCheckCmd() *cobra.Command {
	var (
		dutch, ed2017 bool
		colours       string
	)
	cmd := &cobra.Command{
		Use:   "check --dutch IN.trf",
		Short: "Report every round of a tournament whose pairing differs from ours",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, opts, err := dutchInput(dutch, args[0], ed2017, colours)
			if err != nil {
				return err
			}
			diffs, err := pairing.Check(t, opts)
			if err != nil {
				return err
			}
			w := cmd.OutOrStdout()
			for _, d := range diffs {
				fmt.Fprintln(w, d.String())
			}
			if len(diffs) > 0 {
				return withCode(exitMismatch, fmt.Errorf("%d rounds differ", len(diffs)))
			}
			fmt.Fprintf(w, "%s: every round agrees\n", args[0])
			return nil
		},
	}
	cmd.Flags().BoolVar(&dutch, "dutch", false, "use the FIDE Dutch system")
	cmd.Flags().BoolVar(&ed2017, "edition-2017", false, "use the 2017 edition of the Dutch rules")
	cmd.Flags().StringVar(&colours, "colours", "chess", "colour policy: chess, shogi or lot")
	return cmd
}

func newGenerateCmd() *cobra.Command {
	var (
		dutch bool
		out   string
		seed  uint64
	)
	cmd := &cobra.Command{
		Use:   "generate --dutch CONFIG -o OUT.trf [-s SEED]",
		Short: "Generate a random tournament paired by the Dutch system, for testing",
		Long: `generate plays a random tournament (results, forfeits, byes and withdrawals
at the rates the configuration gives) paired round by round, and writes it as
TRF26. The configuration is a key=value file as the reference engine's:
PlayersNumber, RoundsNumber, DrawPercentage, ForfeitRate, RetiredRate,
HalfPointByeRate, ZeroPointByeRate, HighestRating, LowestRating, and the
PointsFor... keys. "-" reads it from standard input.`,
		Args: cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			if !dutch {
				return fmt.Errorf("%w: only --dutch is supported", errUsage)
			}
			var r io.Reader = cmd.InOrStdin()
			if args[0] != "-" {
				f, err := os.Open(args[0])
				if err != nil {
					return err
				}
				defer f.Close()
				r = f
			}
			cfg, err := generate.ParseConfig(r)
			if err != nil {
				return err
			}
			t, err := generate.Tournament(cfg, seed)
			if err != nil {
				return err
			}
			var buf bytes.Buffer
			if err := t.Write(&buf); err != nil {
				return err
			}
			if out == "" || out == "-" {
				_, err = cmd.OutOrStdout().Write(buf.Bytes())
				return err
			}
			return os.WriteFile(out, buf.Bytes(), 0o644)
		},
	}
	cmd.Flags().BoolVar(&dutch, "dutch", false, "use the FIDE Dutch system")
	cmd.Flags().StringVarP(&out, "output", "o", "", "the TRF file to write (default: standard output)")
	cmd.Flags().Uint64VarP(&seed, "seed", "s", 1, "random seed")
	return cmd
}

func newStandingsCmd() *cobra.Command {
	var tbs string
	var cross bool
	cmd := &cobra.Command{
		Use:   "standings IN.trf [--tiebreaks \"BH/C1 BH SB\"]",
		Short: "Print a tournament's standings with FIDE tie-breaks (C.07)",
		Args:  cobra.ExactArgs(1),
		RunE: func(cmd *cobra.Command, args []string) error {
			t, err := readTRF(args[0])
			if err != nil {
				return err
			}
			model, err := tiebreak.FromTRF(t)
			if err != nil {
				return err
			}
			var specs []tiebreak.Spec
			if strings.TrimSpace(tbs) != "" {
				specs, err = tiebreak.ParseSpecs(tbs)
			} else {
				specs, err = tiebreak.SpecsFromTRF(t)
			}
			if err != nil {
				return fmt.Errorf("%w: --tiebreaks: %v", errUsage, err)
			}
			s, err := tiebreak.Compute(model, specs, tiebreak.Options{})
			if err != nil {
				return err
			}
			if err := s.WriteText(cmd.OutOrStdout()); err != nil {
				return err
			}
			if cross {
				ct, err := tiebreak.NewCrosstable(model, s)
				if err != nil {
					return err
				}
				fmt.Fprintln(cmd.OutOrStdout())
				return ct.WriteText(cmd.OutOrStdout())
			}
			return nil
		},
	}
	cmd.Flags().StringVar(&tbs, "tiebreaks", "", `tie-breaks in order, e.g. "BH/C1 BH SB WIN" (default: the file's 202/212 line)`)
	cmd.Flags().BoolVar(&cross, "crosstable", false, "also print the crosstable")
	return cmd
}
