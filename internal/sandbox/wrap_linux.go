package sandbox

import (
	"encoding/json"
	"fmt"
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
	sock, err := s.proxy.socket()
	if err != nil {
		return nil, err
	}
	controls, watch := s.guard.prepare(s.policy.gitRoots())
	sp, err := s.placesFor(cmd, controls)
	if err != nil {
		s.guard.cancel(watch)
		return nil, err
	}
	sp.Path, sp.Proxy = cmd.Path, sock
	if sock != "" {
		sp.ProxyDev, sp.ProxyIno = s.proxy.identity()
	}
	if status != nil {
		cmd.ExtraFiles = append(cmd.ExtraFiles, status)
		sp.Status = 2 + len(cmd.ExtraFiles)
	}
	lifeR, lifeW, err := os.Pipe()
	if err != nil {
		s.guard.cancel(watch)
		return nil, fmt.Errorf("create the sandbox's life pipe: %w", err)
	}
	cmd.ExtraFiles = append(cmd.ExtraFiles, lifeW)
	sp.Life = 2 + len(cmd.ExtraFiles)
	release := func() {
		lifeW.Close()
		if watch == nil {
			lifeR.Close()
			return
		}
		go s.guard.watchUntil(watch, lifeR)
	}
	data, err := json.Marshal(sp)
	if err != nil {
		release()
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
	return release, nil
}
