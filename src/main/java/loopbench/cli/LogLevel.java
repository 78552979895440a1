package loopbench.cli;

import loopbench.knobs.Knob;

import java.util.logging.ConsoleHandler;
import java.util.logging.Formatter;
import java.util.logging.Level;
import java.util.logging.LogRecord;
import java.util.logging.Logger;

/**
 * How much of loopbench's own log (java.util.logging, logger {@code loopbench} and below) reaches stderr. The proxy
 * logs why it answered an error or closed a connection at {@link #DEBUG}: off by default, since a client only ever
 * gets a fixed text and an error per request is no news under load.
 */
enum LogLevel implements Knob {
    WARN("warn", Level.WARNING),
    INFO("info", Level.INFO),
    /** Also the details of every error answer, timeout and failed backend connection. */
    DEBUG("debug", Level.FINE);

    /** Held: java.util.logging keeps loggers weakly, and a collected logger forgets its level and handler. */
    private static final Logger LOOPBENCH = Logger.getLogger("loopbench");

    private final String cliName;
    private final Level level;

    LogLevel(String cliName, Level level) {
        this.cliName = cliName;
        this.level = level;
    }

    @Override
    public String cliName() {
        return cliName;
    }

    public static LogLevel parse(String value) {
        return Knob.parse(LogLevel.class, "log level", value);
    }

    /** Sets loopbench's loggers to this level, with one line per record on stderr. */
    void apply() {
        LOOPBENCH.setLevel(level);
        if (level.intValue() < Level.INFO.intValue()) {
            // The JVM's default console handler lets INFO and above through: below, loopbench needs its own.
            ConsoleHandler handler = new ConsoleHandler();
            handler.setLevel(level);
            handler.setFormatter(new OneLine());
            LOOPBENCH.addHandler(handler);
            LOOPBENCH.setUseParentHandlers(false);
        }
    }

    /** {@code 2026-11-24 10:00:00.123 FINE loopbench.proxy: message}. */
    private static final class OneLine extends Formatter {
        @Override
        public String format(LogRecord r) {
            return String.format("%1$tF %1$tT.%1$tL %2$s %3$s: %4$s%n", r.getMillis(), r.getLevel(), r.getLoggerName(),
                    formatMessage(r));
        }
    }
}
