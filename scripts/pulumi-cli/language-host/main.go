// Command pulumi-language-nodejs is a small Pulumi language host for Node.js programs.
//
// Why it exists: the official host lives in its own untagged module
// (github.com/pulumi/pulumi/sdk/nodejs/cmd/pulumi-language-nodejs/v3), and the Go module proxy
// that our machines reach refuses every version of it, while it serves the CLI (pkg/v3) and the
// SDK (sdk/v3). A language host is a thin gRPC server: the engine asks it to run the program,
// and it starts `node @pulumi/pulumi/cmd/run` with the monitor and engine addresses. Everything a
// program does happens inside @pulumi/pulumi's own Node.js runtime, so this host implements only
// what `pulumi preview|up|refresh|destroy` and the Automation API call, and RunPlugin for
// Node.js policy packs (`--policy-pack <dir>`).
package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"time"

	sdk "github.com/pulumi/pulumi/sdk/v3"
	"github.com/pulumi/pulumi/sdk/v3/go/common/apitype"
	"github.com/pulumi/pulumi/sdk/v3/go/common/util/rpcutil"
	pulumirpc "github.com/pulumi/pulumi/sdk/v3/proto/go"
	"google.golang.org/grpc"
	"google.golang.org/grpc/codes"
	"google.golang.org/grpc/status"
	"google.golang.org/protobuf/types/known/emptypb"
)

// version is set by the build (-X main.version=...) to the @pulumi/pulumi version it serves.
var version = "0.0.0"

// exitCodeAfterUserMessage is what @pulumi/pulumi's run script exits with once it has already
// shown the user an actionable message; the engine should then stop without adding its own.
const exitCodeAfterUserMessage = 32

type languageHost struct {
	pulumirpc.UnimplementedLanguageRuntimeServer

	mu            sync.Mutex
	engineAddress string
	cancel        context.CancelFunc
	cancelCtx     context.Context
}

func main() {
	// The engine passes flags (-tracing, -root, ...) that this host does not use, then the engine address.
	var engineAddress string
	for _, arg := range os.Args[1:] {
		if !strings.HasPrefix(arg, "-") {
			engineAddress = arg
		}
	}

	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt)
	defer stop()
	cancelChannel := make(chan bool)
	go func() {
		<-ctx.Done()
		close(cancelChannel)
	}()

	host := &languageHost{engineAddress: engineAddress}
	host.cancelCtx, host.cancel = context.WithCancel(context.Background())
	if engineAddress != "" {
		if err := rpcutil.Healthcheck(ctx, engineAddress, 5*time.Minute, stop); err != nil {
			fail("could not start the health check of the engine: %v", err)
		}
	}

	handle, err := rpcutil.ServeWithOptions(rpcutil.ServeOptions{
		Cancel: cancelChannel,
		Init: func(srv *grpc.Server) error {
			pulumirpc.RegisterLanguageRuntimeServer(srv, host)
			return nil
		},
	})
	if err != nil {
		fail("could not start the language host gRPC server: %v", err)
	}
	// The engine reads the port from the first line of our stdout.
	fmt.Printf("%d\n", handle.Port)
	if err := <-handle.Done; err != nil {
		fail("language host stopped serving: %v", err)
	}
}

func fail(format string, args ...any) {
	fmt.Fprintf(os.Stderr, "pulumi-language-nodejs: "+format+"\n", args...)
	os.Exit(1)
}

func (host *languageHost) Handshake(ctx context.Context, req *pulumirpc.LanguageHandshakeRequest) (*pulumirpc.LanguageHandshakeResponse, error) {
	host.mu.Lock()
	host.engineAddress = req.GetEngineAddress()
	host.mu.Unlock()
	return &pulumirpc.LanguageHandshakeResponse{}, nil
}

func (host *languageHost) GetPluginInfo(context.Context, *emptypb.Empty) (*pulumirpc.PluginInfo, error) {
	return &pulumirpc.PluginInfo{Version: version}, nil
}

// The project's programs need no provider plugins beyond the dynamic-provider shim, which the
// engine finds on PATH by itself.
func (host *languageHost) GetRequiredPlugins(context.Context, *pulumirpc.GetRequiredPluginsRequest) (*pulumirpc.GetRequiredPluginsResponse, error) {
	return &pulumirpc.GetRequiredPluginsResponse{}, nil
}

func (host *languageHost) GetRequiredPackages(context.Context, *pulumirpc.GetRequiredPackagesRequest) (*pulumirpc.GetRequiredPackagesResponse, error) {
	return &pulumirpc.GetRequiredPackagesResponse{}, nil
}

func (host *languageHost) GetProgramDependencies(context.Context, *pulumirpc.GetProgramDependenciesRequest) (*pulumirpc.GetProgramDependenciesResponse, error) {
	return &pulumirpc.GetProgramDependenciesResponse{}, nil
}

// Dependencies are installed by `npm ci` in the project's setup, not by the engine.
func (host *languageHost) InstallDependencies(req *pulumirpc.InstallDependenciesRequest, server pulumirpc.LanguageRuntime_InstallDependenciesServer) error {
	return nil
}

func (host *languageHost) RuntimeOptionsPrompts(context.Context, *pulumirpc.RuntimeOptionsRequest) (*pulumirpc.RuntimeOptionsResponse, error) {
	return &pulumirpc.RuntimeOptionsResponse{}, nil
}

func (host *languageHost) About(ctx context.Context, req *pulumirpc.AboutRequest) (*pulumirpc.AboutResponse, error) {
	out, err := exec.CommandContext(ctx, "node", "--version").Output()
	if err != nil {
		return nil, fmt.Errorf("node --version: %w", err)
	}
	return &pulumirpc.AboutResponse{Executable: "node", Version: strings.TrimSpace(string(out))}, nil
}

func (host *languageHost) Cancel(context.Context, *emptypb.Empty) (*emptypb.Empty, error) {
	host.cancel()
	return &emptypb.Empty{}, nil
}

func (host *languageHost) Run(ctx context.Context, req *pulumirpc.RunRequest) (*pulumirpc.RunResponse, error) {
	info := req.GetInfo()
	if info == nil {
		return &pulumirpc.RunResponse{Error: "the engine sent no program info; this language host needs Pulumi v3.100 or later"}, nil
	}
	node, err := exec.LookPath("node")
	if err != nil {
		return &pulumirpc.RunResponse{Error: "could not find node on the PATH: " + err.Error()}, nil
	}
	runScript, err := resolveModule(ctx, node, info.GetProgramDirectory(), "@pulumi/pulumi/cmd/run")
	if err != nil {
		return &pulumirpc.RunResponse{Error: err.Error()}, nil
	}
	// A stack without configuration sends none: the program still reads an empty object, not null
	// (`new pulumi.Config().get(...)` fails on null).
	configMap := req.GetConfig()
	if configMap == nil {
		configMap = map[string]string{}
	}
	config, err := json.Marshal(configMap)
	if err != nil {
		return nil, err
	}
	secretKeyList := req.GetConfigSecretKeys()
	if secretKeyList == nil {
		secretKeyList = []string{}
	}
	secretKeys, err := json.Marshal(secretKeyList)
	if err != nil {
		return nil, err
	}

	host.mu.Lock()
	engineAddress := host.engineAddress
	host.mu.Unlock()

	args := []string{runScript}
	appendFlag := func(name, value string) {
		if value != "" {
			args = append(args, "--"+name, value)
		}
	}
	appendFlag("monitor", req.GetMonitorAddress())
	appendFlag("engine", engineAddress)
	appendFlag("organization", req.GetOrganization())
	appendFlag("project", req.GetProject())
	appendFlag("root-directory", info.GetRootDirectory())
	appendFlag("stack", req.GetStack())
	appendFlag("pwd", info.GetProgramDirectory())
	if req.GetDryRun() {
		args = append(args, "--dry-run")
	}
	appendFlag("parallel", strconv.Itoa(int(req.GetParallel())))
	args = append(args, info.GetEntryPoint())
	args = append(args, req.GetArgs()...)

	env := append(os.Environ(), "PULUMI_CONFIG="+string(config), "PULUMI_CONFIG_SECRET_KEYS="+string(secretKeys))
	options := info.GetOptions().AsMap()
	if typescript, set := options["typescript"].(bool); !set || typescript {
		env = append(env, "PULUMI_NODEJS_TYPESCRIPT=true")
	}
	if tsconfig, ok := options["tsconfig"].(string); ok && tsconfig != "" {
		env = append(env, "PULUMI_NODEJS_TSCONFIG_PATH="+tsconfig)
	}
	nodeArgs := []string{}
	if extra, ok := options["nodeargs"].(string); ok && extra != "" {
		nodeArgs = strings.Fields(extra)
	}

	runCtx, stopRun := context.WithCancel(host.cancelCtx)
	defer stopRun()
	context.AfterFunc(ctx, stopRun)
	cmd := exec.CommandContext(runCtx, node, append(nodeArgs, args...)...)
	cmd.Cancel = func() error { return cmd.Process.Signal(os.Interrupt) }
	cmd.WaitDelay = 5 * time.Second
	cmd.Dir = info.GetProgramDirectory()
	cmd.Env = env
	// Wrapping hides the *os.File, so Go copies through a pipe instead of handing node our
	// descriptors (node may switch them to non-blocking mode).
	cmd.Stdout = struct{ *os.File }{os.Stdout}
	cmd.Stderr = struct{ *os.File }{os.Stderr}

	if err := cmd.Run(); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			if exitErr.ExitCode() == exitCodeAfterUserMessage {
				return &pulumirpc.RunResponse{Bail: true}, nil
			}
			return &pulumirpc.RunResponse{Error: fmt.Sprintf("Program exited with non-zero exit code: %d", exitErr.ExitCode())}, nil
		}
		return &pulumirpc.RunResponse{Error: "could not run node: " + err.Error()}, nil
	}
	return &pulumirpc.RunResponse{}, nil
}

// RunPlugin starts a plugin written for Node.js. The engine asks for it to run a policy pack given
// as a directory (`pulumi preview --policy-pack <dir>`, kind "analyzer"): the pack's PulumiPolicy.yaml
// names the nodejs runtime, and the engine hands this host the pack's directory and its own address.
//
// @pulumi/policy reads the stack, the project and the configuration from the environment, as the
// old `pulumi-analyzer-policy` launcher set it; the engine now sends them in the analyzer's
// ConfigureStack call instead. So the host answers the engine as the analyzer first, through the SDK's
// PolicyProxy: the proxy prints its own port, takes ConfigureStack, and only then is the pack started,
// with that environment; from there the proxy forwards every call to the pack.
func (host *languageHost) RunPlugin(req *pulumirpc.RunPluginRequest, server pulumirpc.LanguageRuntime_RunPluginServer) error {
	if req.GetKind() != string(apitype.AnalyzerPlugin) {
		return status.Errorf(codes.Unimplemented, "this language host runs Node.js policy packs only, not %s plugins", req.GetKind())
	}
	ctx := server.Context()
	info := req.GetInfo()
	if info == nil {
		return errors.New("the engine sent no plugin info; this language host needs Pulumi v3.100 or later")
	}
	packDirectory := info.GetProgramDirectory()
	node, err := exec.LookPath("node")
	if err != nil {
		return fmt.Errorf("could not find node on the PATH: %w", err)
	}
	runScript, err := resolveModule(ctx, node, packDirectory, "@pulumi/pulumi/cmd/run-policy-pack")
	if err != nil {
		return err
	}

	streams, stdout, stderr, err := rpcutil.MakeRunPluginStreams(server, false)
	if err != nil {
		return err
	}
	defer streams.Close()

	proxy, packStdout, err := sdk.NewPolicyProxy(ctx, stdout)
	if err != nil {
		return fmt.Errorf("could not start the policy pack proxy: %w", err)
	}
	stack, err := proxy.AwaitConfiguration(ctx)
	if err != nil {
		return fmt.Errorf("could not get the stack configuration for the policy pack: %w", err)
	}
	env, err := policyPackEnvironment(req.GetEnv(), stack)
	if err != nil {
		return err
	}

	args := []string{}
	if extra, ok := info.GetOptions().AsMap()["nodeargs"].(string); ok && extra != "" {
		args = strings.Fields(extra)
	}
	// run-policy-pack takes the engine address (the engine's arguments), then the pack's directory.
	args = append(append(append(args, runScript), req.GetArgs()...), packDirectory)
	cmd := exec.CommandContext(ctx, node, args...)
	// Packs have always run from their own directory, where their node_modules are.
	cmd.Dir = packDirectory
	cmd.Env = env
	cmd.Stdout = packStdout
	cmd.Stderr = stderr
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("could not run node: %w", err)
	}
	// Attach returns when the pack exits, which the engine asks for once the deployment is over.
	if err := proxy.Attach(ctx, cmd); err != nil {
		var exitErr *exec.ExitError
		if errors.As(err, &exitErr) {
			return fmt.Errorf("policy pack exited with non-zero exit code: %d", exitErr.ExitCode())
		}
		return err
	}
	return streams.Close()
}

// policyPackEnvironment is the environment of a policy pack: the engine's, plus the stack, project,
// organization, dry-run flag and configuration that @pulumi/pulumi reads when the pack calls
// pulumi.getStack(), pulumi.getProject() or new pulumi.Config(). Nil when the engine runs the pack
// outside a stack (`pulumi policy publish`).
func policyPackEnvironment(engineEnv []string, stack *pulumirpc.AnalyzerStackConfigureRequest) ([]string, error) {
	env := append([]string{}, engineEnv...)
	if stack == nil {
		return env, nil
	}
	set := func(name, value string) {
		if value != "" {
			env = append(env, name+"="+value)
		}
	}
	set("PULUMI_NODEJS_ORGANIZATION", stack.GetOrganization())
	set("PULUMI_NODEJS_PROJECT", stack.GetProject())
	set("PULUMI_NODEJS_STACK", stack.GetStack())
	set("PULUMI_NODEJS_DRY_RUN", strconv.FormatBool(stack.GetDryRun()))
	if config := stack.GetConfig(); config != nil {
		encoded, err := json.Marshal(config)
		if err != nil {
			return nil, fmt.Errorf("could not encode the stack configuration: %w", err)
		}
		set("PULUMI_CONFIG", string(encoded))
		secretKeyList := stack.GetConfigSecretKeys()
		if secretKeyList == nil {
			secretKeyList = []string{}
		}
		secretKeys, err := json.Marshal(secretKeyList)
		if err != nil {
			return nil, err
		}
		set("PULUMI_CONFIG_SECRET_KEYS", string(secretKeys))
	}
	return env, nil
}

// resolveModule asks node where a module resolves from the program directory, as the program would.
func resolveModule(ctx context.Context, node, programDirectory, module string) (string, error) {
	cmd := exec.CommandContext(ctx, node, "-e", "console.log(require.resolve(process.argv[1]))", module)
	cmd.Dir = programDirectory
	out, err := cmd.Output()
	if err != nil {
		return "", fmt.Errorf("could not resolve %s from %s: is @pulumi/pulumi installed there (npm install)?", module, programDirectory)
	}
	return filepath.Clean(strings.TrimSpace(string(out))), nil
}
