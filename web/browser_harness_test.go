package web

import (
	"context"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/cdproto/input"
	cdppage "github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/stretchr/testify/require"
)

// The browser tests drive headless Chromium through chromedp.

// browserWait bounds every wait of a browser test for something the page
// must do. It is generous: the tests wait for a condition, and a loaded
// machine only makes them slower, never wrong.
const browserWait = 60 * time.Second

// findChromium returns the browser binary, or "" when there is none.
func findChromium() string {
	if p := os.Getenv("ARBITER_CHROMIUM"); p != "" {
		return p
	}
	for _, name := range []string{"chromium", "chromium-browser", "google-chrome", "google-chrome-stable", "headless_shell"} {
		if p, err := exec.LookPath(name); err == nil {
			return p
		}
	}
	return ""
}

// tab is one page of a headless Chromium in a test.
type tab struct {
	t   *testing.T
	ctx context.Context
	// dialogs counts the JavaScript dialogs the pages opened: a hostile
	// name run as script would open one.
	dialogs atomic.Int32
}

// browserPage opens headless Chromium on a fresh profile for a test and
// returns a page and a function that saves a screenshot under a name. It
// skips the test in -short mode or when no Chromium is installed.
func browserPage(t *testing.T) (*tab, func(name string)) {
	t.Helper()
	if testing.Short() {
		t.Skip("browser test skipped in -short mode")
	}
	bin := findChromium()
	if bin == "" {
		t.Skip("no chromium binary found (install chromium or set ARBITER_CHROMIUM)")
	}
	profile, err := os.MkdirTemp("", "arbiter-chromium-")
	require.NoError(t, err)
	t.Cleanup(func() { removeEventually(t, profile) })
	opts := append(chromedp.DefaultExecAllocatorOptions[:],
		chromedp.ExecPath(bin), chromedp.NoSandbox, chromedp.DisableGPU, chromedp.UserDataDir(profile),
		chromedp.Flag("disable-quic", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.WindowSize(1280, 1600))
	allocCtx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	p := &tab{t: t}
	ctx, cancel := chromedp.NewContext(allocCtx, chromedp.WithListener(func(ev any) {
		if _, ok := ev.(*cdppage.EventJavascriptDialogOpening); ok {
			p.dialogs.Add(1)
			// Close it, or the page would wait for it: from another
			// goroutine, as the listener may send no command.
			go func() {
				_, _ = chromedp.Call(p.ctx, cdppage.HandleJavaScriptDialog, cdppage.HandleJavaScriptDialogParams{})
			}()
		}
	}))
	p.ctx = ctx
	t.Cleanup(func() { cancel(); cancelAlloc() })
	// The first action starts the browser, with no deadline of its own:
	// its life is the test's.
	require.NoError(t, chromedp.Do(ctx), "start chromium")
	shots := artifactDir(t)
	return p, func(name string) {
		t.Helper()
		png, err := p.screenshot()
		require.NoError(t, err)
		for _, dir := range shots {
			require.NoError(t, os.WriteFile(filepath.Join(dir, name), png, 0o644))
		}
	}
}

// do runs actions with the browser wait as deadline.
func (p *tab) do(steps ...chromedp.Action[chromedp.Void]) error {
	ctx, cancel := context.WithTimeout(p.ctx, browserWait)
	defer cancel()
	return chromedp.Do(ctx, steps...)
}

// navigate loads a URL and waits until the document is complete.
func (p *tab) navigate(u string) error {
	if err := p.do(chromedp.Navigate(u)); err != nil {
		return fmt.Errorf("navigate to %s: %w", u, err)
	}
	return p.waitTrue(fmt.Sprintf("location.href === %q && document.readyState === 'complete'", u))
}

// eval evaluates a JavaScript expression in the page (awaiting a promise)
// and returns its value, decoded from JSON.
func (p *tab) eval(expr string) (any, error) {
	ctx, cancel := context.WithTimeout(p.ctx, browserWait)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr, chromedp.EvalAwaitPromise))
	if errors.Is(err, chromedp.ErrJSUndefined) || errors.Is(err, chromedp.ErrJSNull) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("javascript %q: %w", expr, err)
	}
	return v, nil
}

// waitTrue waits until a JavaScript condition holds, across page loads.
func (p *tab) waitTrue(expr string) error {
	deadline := time.Now().Add(browserWait)
	for {
		v, err := p.eval(expr)
		if err == nil && v == true {
			return nil
		}
		if time.Now().After(deadline) {
			return fmt.Errorf("timed out waiting for %s (last: %v, %v)", expr, v, err)
		}
		select {
		case <-p.ctx.Done():
			return p.ctx.Err()
		case <-time.After(25 * time.Millisecond): // the next look
		}
	}
}

// screenshot returns a PNG of the page.
func (p *tab) screenshot() ([]byte, error) {
	return chromedp.Run(p.ctx, chromedp.FullScreenshot(100))
}

// media emulates a CSS media type ("print"; "" for none).
func (p *tab) media(m string) error {
	_, err := chromedp.Call(p.ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{Media: m})
	return err
}

// viewport emulates a screen of width by height, a phone's when mobile.
func (p *tab) viewport(width, height int64, mobile bool) error {
	opts := []chromedp.EmulateViewportOption{chromedp.EmulateScale(1)}
	if mobile {
		opts = append(opts, chromedp.EmulateMobile)
	}
	return p.do(chromedp.EmulateViewport(width, height, opts...))
}

// key presses and releases a key, wherever the focus is.
func (p *tab) key(key string, code int64) error {
	for _, typ := range []input.DispatchKeyEventType{input.DispatchKeyEventTypeRawKeyDown, input.DispatchKeyEventTypeKeyUp} {
		if _, err := chromedp.Call(p.ctx, input.DispatchKeyEvent, input.DispatchKeyEventParams{
			Type: typ, Key: key, Code: key, WindowsVirtualKeyCode: code}); err != nil {
			return err
		}
	}
	return nil
}

// sawDialog reports whether a page opened a JavaScript dialog.
func (p *tab) sawDialog() bool { return p.dialogs.Load() > 0 }

func evalOK(t *testing.T, p *tab, expr string) any {
	t.Helper()
	v, err := p.eval(expr)
	require.NoError(t, err)
	return v
}
