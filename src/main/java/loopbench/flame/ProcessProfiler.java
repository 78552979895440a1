package loopbench.flame;

import com.sun.tools.attach.AgentInitializationException;
import com.sun.tools.attach.AgentLoadException;
import com.sun.tools.attach.AttachNotSupportedException;
import com.sun.tools.attach.VirtualMachine;

import java.io.IOException;
import java.nio.file.Path;

/**
 * Profiles another JVM (a server process of an end-to-end benchmark) by loading async-profiler into it through the
 * JDK's Attach API. The profile is written to its file when it is stopped or, if it is still running then, when that
 * JVM exits normally (async-profiler dumps on VM death): a server stopped with SIGTERM leaves its graph; one killed
 * with SIGKILL does not. Servers started by loopbench allow it ({@code -XX:+EnableDynamicAgentLoading} on JDK 21+).
 */
public final class ProcessProfiler {
    private ProcessProfiler() {
    }

    /** Starts sampling {@code event} in process {@code pid}; the flame graph goes to {@code file} (HTML). */
    public static void start(long pid, Path library, String event, Path file) {
        load(pid, library, "start,event=" + event + ",file=" + file.toAbsolutePath());
    }

    /** Stops sampling in {@code pid} and writes the flame graph to {@code file} now. */
    public static void stop(long pid, Path library, Path file) {
        load(pid, library, "stop,file=" + file.toAbsolutePath());
    }

    private static void load(long pid, Path library, String command) {
        VirtualMachine vm;
        try {
            vm = VirtualMachine.attach(Long.toString(pid));
        } catch (AttachNotSupportedException | IOException e) {
            throw new IllegalStateException("cannot attach to process " + pid + ": " + e.getMessage(), e);
        }
        try {
            vm.loadAgentPath(library.toString(), command);
        } catch (AgentLoadException | AgentInitializationException | IOException e) {
            throw new IllegalStateException("async-profiler '" + command + "' failed in process " + pid + ": "
                    + e.getMessage(), e);
        } finally {
            try {
                vm.detach();
            } catch (IOException e) {
                // the process may be gone already
            }
        }
    }
}
