package loopbench.cli;

import io.netty.util.ResourceLeakDetector;
import loopbench.echo.EchoExecutor;
import loopbench.echo.EchoFramework;
import loopbench.knobs.Allocator;
import loopbench.knobs.BufferType;
import loopbench.knobs.EpollModes;
import loopbench.knobs.RecvAllocator;
import loopbench.knobs.ThreadModel;
import loopbench.knobs.Transport;
import loopbench.load.Durations;
import loopbench.origin.WorkStrategy;
import loopbench.proxy.BackendPool;
import loopbench.proxy.L4Mode;
import loopbench.proxy.L7Mode;
import loopbench.proxy.Layer;
import loopbench.topology.CpuSet;
import loopbench.topology.LinkSpec;
import loopbench.topology.Role;
import picocli.CommandLine;
import picocli.CommandLine.ITypeConverter;
import picocli.CommandLine.TypeConversionException;

import java.net.InetSocketAddress;
import java.time.Duration;
import java.util.function.Function;

/** Every knob is parsed by its own type's parse method, so the CLI and the code agree on spellings. */
final class Converters {
    private Converters() {
    }

    static void register(CommandLine cmd) {
        cmd.registerConverter(Transport.class, of(Transport::parse));
        cmd.registerConverter(EpollModes.class, of(EpollModes::parse));
        cmd.registerConverter(Allocator.class, of(Allocator::parse));
        cmd.registerConverter(BufferType.class, of(BufferType::parse));
        cmd.registerConverter(ThreadModel.class, of(ThreadModel::parse));
        cmd.registerConverter(Layer.class, of(Layer::parse));
        cmd.registerConverter(L7Mode.class, of(L7Mode::parse));
        cmd.registerConverter(BackendPool.class, of(BackendPool::parse));
        cmd.registerConverter(L4Mode.class, of(L4Mode::parse));
        cmd.registerConverter(WorkStrategy.class, of(WorkStrategy::parse));
        cmd.registerConverter(EchoExecutor.class, of(EchoExecutor::parse));
        cmd.registerConverter(EchoFramework.class, of(EchoFramework::parse));
        cmd.registerConverter(RecvAllocator.class, of(RecvAllocator::parse));
        cmd.registerConverter(InetSocketAddress.class, of(Converters::hostPort));
        cmd.registerConverter(CpuSet.class, of(CpuSet::parse));
        cmd.registerConverter(Role.class, of(Role::parse));
        cmd.registerConverter(LinkSpec.class, of(LinkSpec::parse));
        cmd.registerConverter(Duration.class, of(Converters::timeout));
        cmd.registerConverter(ResourceLeakDetector.Level.class, of(LeakDetection::parse));
        cmd.registerConverter(LogLevel.class, of(LogLevel::parse));
    }

    private static <T> ITypeConverter<T> of(Function<String, T> parse) {
        return value -> {
            try {
                return parse.apply(value);
            } catch (IllegalArgumentException e) {
                throw new TypeConversionException(e.getMessage());
            }
        };
    }

    /** A timeout: 0 (off), or a duration as {@link Durations} spells it (500ms, 60s, 10m). */
    static Duration timeout(String value) {
        if ("0".equals(value.trim())) {
            return Duration.ZERO;
        }
        try {
            return Durations.parse(value);
        } catch (IllegalArgumentException e) {
            throw new IllegalArgumentException("bad timeout '" + value + "'; expected 0 (off) or " + Durations.VALID);
        }
    }

    /** HOST:PORT, or [IPv6]:PORT. */
    static InetSocketAddress hostPort(String value) {
        int colon = value.lastIndexOf(':');
        String hint = "; expected HOST:PORT, e.g. 127.0.0.1:8080 (port 0 = any free port)";
        if (colon <= 0 || colon == value.length() - 1) {
            throw new IllegalArgumentException("bad address '" + value + "'" + hint);
        }
        String host = value.substring(0, colon);
        if (host.startsWith("[") && host.endsWith("]")) {
            host = host.substring(1, host.length() - 1);
        }
        int port;
        try {
            port = Integer.parseInt(value.substring(colon + 1));
        } catch (NumberFormatException e) {
            throw new IllegalArgumentException("bad port in '" + value + "'" + hint);
        }
        if (port < 0 || port > 65535) {
            throw new IllegalArgumentException("port " + port + " in '" + value + "' is out of range 0..65535");
        }
        InetSocketAddress address = new InetSocketAddress(host, port);
        if (address.isUnresolved()) {
            throw new IllegalArgumentException("cannot resolve host '" + host + "' in '" + value + "'");
        }
        return address;
    }
}
