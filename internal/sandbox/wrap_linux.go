package sandbox

import (
	"encoding/json"
	"os"
	"os/exec"
	"syscall"
)

// InitArg is the hidden first argument that makes forge the sandbox's
// first process (Init): forge __sandbox SPEC -- PROGRAM ARGS...
const InitArg = "__sandbox"

// namespaces are those the sandbox's first process starts in.
const namespaces = syscall.CLONE_NEWUSER | syscall.CLONE_NEWNS | syscall.CLONE_NEWPID | syscall.CLONE_NEWNET | syscall.CLONE_NEWIPC

// Wrap changes cmd, not yet started, so that it runs in the sandbox: cmd
// then starts forge's first process of the sandbox, which runs the
// command. status, when not nil, receives the command's exit
// (proc.WriteExit). cmd keeps its directory, environment, streams and
// process group.
func (s *Sandbox) Wrap(cmd *exec.Cmd, status *os.File) (func(), error) {
	if s.policy.Mode == ModeOff {
		return func() {}, nil
	}
	sp, err := s.placesFor(cmd)
	if err != nil {
		return nil, err
	}
	sp.Path = cmd.Path
	sock, err := s.proxy.socket()
	if err != nil {
		return nil, err
	}
	sp.Proxy = sock
	if status != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, status)
		sp.Status = 2 + len(cmd.ExtraFiles)
	}
	data, err := json.Marshal(sp)
	if err != nil {
		return nil, err
	}
	args := append([]string{s.opts.Name, InitArg, string(data), "--"}, cmd.Args...)
	cmd.Path, cmd.Args = s.opts.Executable, args
	attr := &syscall.SysProcAttr{}
	if cmd.SysProcAttr != nil {
		c := *cmd.SysProcAttr
		attr = &c
	}
	attr.Cloneflags |= namespaces
	attr.UidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getuid(), HostID: os.Getuid(), Size: 1}}
	attr.GidMappings = []syscall.SysProcIDMap{{ContainerID: os.Getgid(), HostID: os.Getgid(), Size: 1}}
	attr.GidMappingsEnableSetgroups = false
	cmd.SysProcAttr = attr
	return func() {}, nil
}
