package loopbench.proxy;

import io.netty.channel.ChannelHandler;

import java.lang.reflect.Constructor;
import java.lang.reflect.InvocationTargetException;
import java.lang.reflect.Modifier;

/**
 * A user's own {@link ChannelHandler}, named by its class ({@code --handler CLASS}: on the proxy's class path, public,
 * with a public no-argument constructor), that the L7 proxy puts in every client connection's pipeline right before
 * its own frontend handler: after the HTTP codec (and the aggregator in {@code aggregate} mode), so it reads the
 * requests as the proxy does ({@code FullHttpRequest}s, or the head and body pieces in {@code stream} mode) and writes
 * the responses going back. What it costs per request is then measured with the proxy's own path:
 * {@code PipelineCostBenchmark -p handler=CLASS -prof gc} (B/op and ns/op beside {@code handler=none}), and end to end.
 * A {@link ChannelHandler.Sharable} handler is made once and shared by every connection; any other, once per
 * connection.
 */
public final class UserHandler {
    /** The {@code handler} value that means none. */
    public static final String NONE = "none";

    private final Constructor<? extends ChannelHandler> constructor;
    private final ChannelHandler shared;

    private UserHandler(Constructor<? extends ChannelHandler> constructor) {
        this.constructor = constructor;
        this.shared = constructor.getDeclaringClass().isAnnotationPresent(ChannelHandler.Sharable.class)
                ? instantiate() : null;
    }

    /**
     * The handler class {@code className}, checked now (so that a wrong name fails at start, naming what is wrong);
     * null for {@value #NONE}.
     */
    public static UserHandler of(String className) {
        if (className == null || className.isBlank() || NONE.equals(className)) {
            return null;
        }
        Class<?> c;
        try {
            c = Class.forName(className, false, Thread.currentThread().getContextClassLoader());
        } catch (ClassNotFoundException | LinkageError e) {
            throw new IllegalArgumentException("handler class '" + className + "' is not on the class path (" + e
                    + "); give a ChannelHandler class the proxy can load (java -cp loopbench.jar:yours.jar "
                    + "loopbench.cli.Main proxy ...), or " + NONE);
        }
        if (!ChannelHandler.class.isAssignableFrom(c)) {
            throw new IllegalArgumentException("handler class '" + className + "' is not an "
                    + "io.netty.channel.ChannelHandler");
        }
        if (!Modifier.isPublic(c.getModifiers()) || Modifier.isAbstract(c.getModifiers())) {
            throw new IllegalArgumentException("handler class '" + className + "' must be public and not abstract");
        }
        try {
            @SuppressWarnings("unchecked")
            Constructor<? extends ChannelHandler> k = (Constructor<? extends ChannelHandler>) c.getConstructor();
            return new UserHandler(k);
        } catch (NoSuchMethodException e) {
            throw new IllegalArgumentException("handler class '" + className + "' has no public no-argument "
                    + "constructor");
        }
    }

    /** The handler for a new connection: the shared one, or a new one. */
    public ChannelHandler newHandler() {
        return shared != null ? shared : instantiate();
    }

    /** The handler's name in the pipeline: {@code user-handler}. */
    public String pipelineName() {
        return "user-handler";
    }

    public String className() {
        return constructor.getDeclaringClass().getName();
    }

    private ChannelHandler instantiate() {
        try {
            return constructor.newInstance();
        } catch (InvocationTargetException e) {
            throw new IllegalStateException("handler " + className() + "'s constructor threw " + e.getCause(),
                    e.getCause());
        } catch (ReflectiveOperationException e) {
            throw new IllegalStateException("cannot make a " + className() + ": " + e, e);
        }
    }

    @Override
    public String toString() {
        return className();
    }
}
