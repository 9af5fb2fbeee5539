package main

import (
	"bufio"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"arbiter/web"
)

func newHashPasswordCmd() *cobra.Command {
	return &cobra.Command{
		Use:   "hash-password",
		Short: "Print the hash of a console password, for console.users[].password",
		Long: `hash-password reads a console password and prints its bcrypt hash, to put
in the configuration as console.users[].password. On a terminal it asks for
the password twice without showing it; otherwise it reads the first line of
standard input:

  arbiter hash-password
  printf '%s\n' "$PASSWORD" | arbiter hash-password`,
		Args: cobra.NoArgs,
		RunE: func(cmd *cobra.Command, _ []string) error {
			var password string
			var err error
			if f, ok := cmd.InOrStdin().(*os.File); ok && term.IsTerminal(int(f.Fd())) {
				password, err = promptPassword(int(f.Fd()), cmd.ErrOrStderr())
			} else {
				password, err = readPasswordLine(cmd.InOrStdin())
			}
			if err != nil {
				return withCode(exitUsage, err)
			}
			hash, err := web.HashPassword(password)
			if err != nil {
				return withCode(exitUsage, err)
			}
			_, err = fmt.Fprintln(cmd.OutOrStdout(), hash)
			return err
		},
	}
}

// promptPassword asks for the password twice on a terminal, without echo.
func promptPassword(fd int, prompt io.Writer) (string, error) {
	fmt.Fprint(prompt, "Password: ")
	first, err := term.ReadPassword(fd)
	fmt.Fprintln(prompt)
	if err != nil {
		return "", fmt.Errorf("read the password: %w", err)
	}
	fmt.Fprint(prompt, "Again: ")
	second, err := term.ReadPassword(fd)
	fmt.Fprintln(prompt)
	if err != nil {
		return "", fmt.Errorf("read the password: %w", err)
	}
	if string(first) != string(second) {
		return "", errors.New("the two passwords differ")
	}
	return string(first), nil
}

// readPasswordLine reads the first line of r, without its line end. The
// rest of the line is the password, spaces included.
func readPasswordLine(r io.Reader) (string, error) {
	line, err := bufio.NewReaderSize(r, 1024).ReadString('\n')
	if err != nil && !errors.Is(err, io.EOF) {
		return "", fmt.Errorf("read the password from standard input: %w", err)
	}
	line = strings.TrimSuffix(strings.TrimSuffix(line, "\n"), "\r")
	if line == "" {
		return "", errors.New("no password on standard input: give it on the first line")
	}
	return line, nil
}
