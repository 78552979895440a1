package loopbench.topology;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Another machine reached with OpenSSH ({@code ssh}, {@code scp}: the standard tools, in batch mode, never a
 * password prompt): {@code ssh://[user@]host[:port]} plus the options every call gets (an identity file, a known-hosts
 * file, ...). It builds the command lines; {@link RemoteServer} and {@link RemoteLoad} run them.
 */
public record SshHost(String user, String host, int port, List<String> options) {
    private static final Pattern URI = Pattern.compile("ssh://(?:([^@/:\\s]+)@)?([^@/:\\s\\[\\]]+|\\[[0-9a-fA-F:]+])"
            + "(?::(\\d{1,5}))?/?");
    private static final long COMMAND_TIMEOUT_SECONDS = 120;

    public SshHost {
        options = List.copyOf(options);
    }

    /** {@code ssh://[user@]host[:port]}; the port defaults to 22. */
    public static SshHost parse(String uri, List<String> options) {
        Matcher m = URI.matcher(uri.trim());
        if (!m.matches()) {
            throw new IllegalArgumentException("'" + uri + "' is not ssh://[user@]host[:port] (e.g. "
                    + "ssh://bench@host-b)");
        }
        int port = m.group(3) == null ? 22 : Integer.parseInt(m.group(3));
        if (port < 1 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " in '" + uri + "' is out of range 1..65535");
        }
        String host = m.group(2).startsWith("[") ? m.group(2).substring(1, m.group(2).length() - 1) : m.group(2);
        return new SshHost(m.group(1), host, port, options);
    }

    /** {@code user@host}, or {@code host}. */
    public String destination() {
        return (user == null ? "" : user + "@") + host;
    }

    /**
     * {@code ssh ... destination -- 'remote' 'command'}: the remote command as one line for the remote shell, every
     * word quoted. No terminal ({@code -T}): the remote command's stdin is this side's pipe, so its end (this JVM
     * gone, the link dropped) is the remote command's end of input.
     */
    public List<String> ssh(List<String> remoteCommand) {
        List<String> cmd = new ArrayList<>(List.of("ssh", "-T", "-o", "BatchMode=yes", "-o", "ServerAliveInterval=5",
                "-o", "ServerAliveCountMax=3", "-p", Integer.toString(port)));
        cmd.addAll(options);
        cmd.add(destination());
        cmd.add("--");
        cmd.add(shellWords(remoteCommand));
        return cmd;
    }

    /** {@code scp ... local destination:remotePath}. */
    public List<String> scp(Path local, String remotePath) {
        List<String> cmd = new ArrayList<>(List.of("scp", "-q", "-B", "-P", Integer.toString(port)));
        cmd.addAll(options);
        cmd.add(local.toString());
        cmd.add((user == null ? "" : user + "@") + (host.contains(":") ? "[" + host + "]" : host) + ":" + remotePath);
        return cmd;
    }

    /** What a command run to its end printed, and its exit code. */
    public record Output(int exitCode, String text) {
    }

    /** Runs {@code remoteCommand} there to its end (bounded), stdin empty; stdout and stderr together. */
    public Output run(List<String> remoteCommand) {
        return runLocally(ssh(remoteCommand));
    }

    /** Runs {@code remoteCommand} there; throws, naming the host, the command and what it said, unless it exits 0. */
    public String check(List<String> remoteCommand) {
        Output o = run(remoteCommand);
        if (o.exitCode() != 0) {
            throw new IllegalStateException("on " + this + ": '" + String.join(" ", remoteCommand) + "' failed (exit "
                    + o.exitCode() + "): " + o.text().trim());
        }
        return o.text();
    }

    /** Runs one of this machine's commands (ssh, scp) to its end, bounded; stdout and stderr together. */
    static Output runLocally(List<String> command) {
        Path out = null;
        Process p = null;
        try {
            out = Files.createTempFile("loopbench-ssh-", ".out");
            p = new ProcessBuilder(command).redirectErrorStream(true).redirectOutput(out.toFile()).start();
            p.getOutputStream().close();
            if (!p.waitFor(COMMAND_TIMEOUT_SECONDS, TimeUnit.SECONDS)) {
                p.destroyForcibly();
                throw new IllegalStateException("'" + String.join(" ", command) + "' did not end within "
                        + COMMAND_TIMEOUT_SECONDS + " s");
            }
            return new Output(p.exitValue(), Files.readString(out, StandardCharsets.UTF_8));
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run '" + command.get(0) + "' (" + e.getMessage()
                    + "): OpenSSH's client is needed (apt-get install openssh-client)", e);
        } catch (InterruptedException e) {
            p.destroyForcibly();
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running '" + String.join(" ", command) + "'", e);
        } finally {
            if (out != null) {
                try {
                    Files.deleteIfExists(out);
                } catch (IOException e) {
                    // a temporary file left behind is harmless
                }
            }
        }
    }

    /** Every word single-quoted for a POSIX shell. */
    static String shellWords(List<String> words) {
        StringBuilder sb = new StringBuilder();
        for (String w : words) {
            sb.append(sb.length() == 0 ? "" : " ").append('\'').append(w.replace("'", "'\\''")).append('\'');
        }
        return sb.toString();
    }

    @Override
    public String toString() {
        return "ssh://" + (user == null ? "" : user + "@") + (host.contains(":") ? "[" + host + "]" : host)
                + (port == 22 ? "" : ":" + port);
    }
}
