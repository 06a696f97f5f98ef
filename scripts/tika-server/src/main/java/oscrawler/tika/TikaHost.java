package oscrawler.tika;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.OutputStreamWriter;
import java.io.Writer;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.URL;
import java.net.URLConnection;
import java.net.URLStreamHandler;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicLong;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import javax.xml.transform.OutputKeys;
import javax.xml.transform.sax.SAXTransformerFactory;
import javax.xml.transform.sax.TransformerHandler;
import javax.xml.transform.stream.StreamResult;

import com.sun.net.httpserver.Headers;
import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import org.xml.sax.ContentHandler;
import org.xml.sax.SAXException;

import org.apache.tika.Tika;
import org.apache.tika.config.TikaConfig;
import org.apache.tika.exception.EncryptedDocumentException;
import org.apache.tika.exception.TikaException;
import org.apache.tika.exception.WriteLimitReachedException;
import org.apache.tika.metadata.Metadata;
import org.apache.tika.metadata.TikaCoreProperties;
import org.apache.tika.parser.AutoDetectParser;
import org.apache.tika.parser.ParseContext;
import org.apache.tika.parser.Parser;
import org.apache.tika.parser.RecursiveParserWrapper;
import org.apache.tika.sax.BasicContentHandlerFactory;
import org.apache.tika.sax.BodyContentHandler;
import org.apache.tika.sax.ExpandedTitleContentHandler;
import org.apache.tika.sax.RecursiveParserWrapperHandler;
import org.apache.tika.sax.RichTextContentHandler;
import org.apache.tika.utils.XMLReaderUtils;

/**
 * The embedded Tika server of the crawler (scripts/tika starts it): the part of Apache Tika server
 * 3.2.2's REST API the crawler uses, served with the JDK's HTTP server on a loopback address.
 *
 * <p>The official tika-server jars are not available to this project's machines, so this host
 * re-implements the resources below from their source (tika-server-core 3.2.2: TikaResource,
 * RecursiveMetadataResource, TikaVersion, TikaServerParseExceptionMapper and the JSON writer of
 * MetadataListMessageBodyWriter) on top of the same tika-core classes, so the official server (the
 * apache/tika Docker image) answers the crawler in the same way:
 *
 * <ul>
 *   <li>{@code GET /tika}: the greeting; {@code GET /version}: "Apache Tika 3.2.2".
 *   <li>{@code PUT /tika} with {@code Accept: text/html} (XHTML), {@code text/xml} or
 *       {@code text/plain} (the body text): 200 with the output; 422 when Tika cannot parse the
 *       document (encrypted, corrupt, unsupported), 500 for other failures, both without a body.
 *   <li>{@code PUT /rmeta} and {@code PUT /rmeta/{xml,html,text,body,ignore}}: a JSON array of
 *       metadata objects, the container document first, its content under {@code X-TIKA:content};
 *       always 200 for a parse failure, which is recorded in the container's
 *       {@code X-TIKA:EXCEPTION:container_exception} (and {@code X-TIKA:encrypted}). Headers
 *       {@code writeLimit}, {@code maxEmbeddedResources} and {@code throwOnWriteLimitReached}.
 *   <li>Request headers read as the official server reads them: {@code Content-Type} (a type other
 *       than octet-stream, XML or *&#47;* overrides detection), {@code Content-Disposition:
 *       attachment; filename=...} or {@code File-Name} (the resource name, a detection hint),
 *       {@code Content-Length}, and {@code meta_*} headers (metadata).
 * </ul>
 *
 * <p>Nothing else: no fetchers (Tika only reads the bytes it is sent), no multipart forms, no
 * unpacking. Like the official server's watchdog, a parse that runs longer than
 * {@code --taskTimeoutMillis} ends the process (exit code 3), since a Java thread cannot be stopped;
 * whoever started it starts it again. An OutOfMemoryError ends it too (-XX:+ExitOnOutOfMemoryError).
 *
 * <p>Usage: {@code java -cp 'lib/*:classes' oscrawler.tika.TikaHost --port 9998
 * [--host 127.0.0.1] [--threads 8] [--taskTimeoutMillis 300000] [--config tika-config.xml]}
 */
public final class TikaHost {

    /** The version of the Tika server whose API this host serves (tika-core's own version). */
    static final String GREETING = "This is Tika Server (" + Tika.getString() + "). Please PUT\n";

    private static final Pattern RMETA = Pattern.compile("^/rmeta(?:/(\\w+)?)?/?$");
    private static final String META_PREFIX = "meta_";
    private static final int EXIT_TIMEOUT = 3;

    private final TikaConfig config;
    private final long taskTimeoutMillis;
    private final Map<Long, long[]> tasks = new ConcurrentHashMap<>();
    private final AtomicLong taskIds = new AtomicLong();

    private TikaHost(TikaConfig config, long taskTimeoutMillis) {
        this.config = config;
        this.taskTimeoutMillis = taskTimeoutMillis;
    }

    public static void main(String[] args) throws Exception {
        String host = "127.0.0.1";
        int port = 9998;
        int threads = 8;
        long taskTimeout = 300_000;
        Path configFile = null;
        for (int i = 0; i + 1 < args.length; i += 2) {
            switch (args[i]) {
                case "--host": host = args[i + 1]; break;
                case "--port": port = Integer.parseInt(args[i + 1]); break;
                case "--threads": threads = Integer.parseInt(args[i + 1]); break;
                case "--taskTimeoutMillis": taskTimeout = Long.parseLong(args[i + 1]); break;
                case "--config": configFile = Paths.get(args[i + 1]); break;
                default: usage("unknown option " + args[i]);
            }
        }
        if (args.length % 2 != 0) usage("an option lacks its value");
        InetAddress address = InetAddress.getByName(host);
        // Loopback only: the server has no authentication and parses whatever it is sent.
        if (!address.isLoopbackAddress()) usage("--host must be a loopback address, not " + host);
        denyNetwork();

        TikaConfig config = configFile == null ? TikaConfig.getDefaultConfig() : new TikaConfig(configFile);
        TikaHost tika = new TikaHost(config, taskTimeout);
        HttpServer server = HttpServer.create(new InetSocketAddress(address, port), 64);
        ExecutorService pool = Executors.newFixedThreadPool(threads, r -> {
            Thread t = new Thread(r, "tika-request");
            t.setDaemon(true);
            return t;
        });
        server.setExecutor(pool);
        server.createContext("/", tika::handle);
        server.start();
        tika.startWatchdog();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> server.stop(0), "tika-shutdown"));
        int bound = server.getAddress().getPort();
        System.out.println("TikaHost: " + Tika.getString() + " listening on http://"
                + server.getAddress().getAddress().getHostAddress() + ":" + bound
                + " (task timeout " + taskTimeout + " ms, " + threads + " threads)");
        System.out.flush();
    }

    private static void usage(String problem) {
        System.err.println("TikaHost: " + problem + "\nusage: TikaHost --port N [--host 127.0.0.1] [--threads N] "
                + "[--taskTimeoutMillis N] [--config tika-config.xml]");
        System.exit(2);
    }

    /**
     * Tika only parses the bytes it is sent: a document that names a URL (an external entity, an
     * XInclude, a linked image) must not make it fetch anything. Tika's XML readers already refuse
     * external entities; this closes the URL handlers for network schemes besides.
     */
    private static void denyNetwork() {
        URL.setURLStreamHandlerFactory(protocol -> {
            switch (protocol.toLowerCase(Locale.ROOT)) {
                case "http": case "https": case "ftp": case "mailto": case "netdoc": case "gopher":
                    return new URLStreamHandler() {
                        @Override
                        protected URLConnection openConnection(URL u) throws IOException {
                            throw new IOException("the Tika host opens no network connection (" + u.getProtocol() + ")");
                        }
                    };
                default:
                    return null;
            }
        });
    }

    // --- Routing -------------------------------------------------------------------------------

    private void handle(HttpExchange ex) throws IOException {
        try {
            String path = ex.getRequestURI().getPath();
            String method = ex.getRequestMethod();
            Matcher rmeta = RMETA.matcher(path);
            if (path.equals("/tika") || path.equals("/tika/")) {
                if (method.equals("GET")) text(ex, 200, GREETING);
                else if (method.equals("PUT")) tika(ex);
                else empty(ex, 405);
            } else if (path.equals("/version")) {
                if (method.equals("GET")) text(ex, 200, Tika.getString());
                else empty(ex, 405);
            } else if (rmeta.matches()) {
                if (method.equals("PUT")) rmeta(ex, rmeta.group(1));
                else empty(ex, 405);
            } else {
                empty(ex, 404);
            }
        } catch (Throwable t) {
            log("request failed: " + t);
            try {
                empty(ex, 500);
            } catch (IOException ignored) {
                // the client is gone
            }
        } finally {
            ex.close();
        }
    }

    // --- PUT /tika (TikaResource.getHTML / getXML / getText) --------------------------------------

    private void tika(HttpExchange ex) throws IOException {
        String format = outputFormat(ex.getRequestHeaders().getFirst("Accept"));
        if (format == null) {
            empty(ex, 406);
            return;
        }
        Metadata metadata = new Metadata();
        fillMetadata(metadata, ex.getRequestHeaders());
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        Writer writer = new OutputStreamWriter(out, StandardCharsets.UTF_8);
        try {
            ContentHandler handler;
            if (format.equals("text")) {
                handler = new BodyContentHandler(new RichTextContentHandler(writer));
            } else {
                SAXTransformerFactory factory = XMLReaderUtils.getSAXTransformerFactory();
                TransformerHandler th = factory.newTransformerHandler();
                th.getTransformer().setOutputProperty(OutputKeys.METHOD, format);
                th.getTransformer().setOutputProperty(OutputKeys.INDENT, "yes");
                th.getTransformer().setOutputProperty(OutputKeys.ENCODING, "UTF-8");
                th.getTransformer().setOutputProperty(OutputKeys.VERSION, "1.1");
                th.setResult(new StreamResult(writer));
                handler = new ExpandedTitleContentHandler(th);
            }
            parse(new AutoDetectParser(config), ex.getRequestBody(), handler, metadata, new ParseContext());
            writer.flush();
        } catch (Exception e) {
            // TikaServerParseExceptionMapper without a stack trace: the status says it all.
            empty(ex, statusOf(e));
            return;
        }
        String type = format.equals("text") ? "text/plain" : format.equals("html") ? "text/html" : "text/xml";
        send(ex, 200, type, out.toByteArray());
    }

    /** What the Accept header asks of PUT /tika: "html", "xml", "text", or null (406). */
    static String outputFormat(String accept) {
        if (accept == null || accept.isBlank()) return "text";
        String best = null;
        for (String part : accept.split(",")) {
            String type = part.split(";")[0].trim().toLowerCase(Locale.ROOT);
            String f = type.equals("text/html") ? "html"
                    : type.equals("text/xml") ? "xml"
                    : type.equals("text/plain") || type.equals("text/*") || type.equals("*/*") ? "text"
                    : null;
            if (f != null && (best == null || best.equals("text"))) best = f;
        }
        return best;
    }

    /** The status TikaServerParseExceptionMapper gives a failure of the parse. */
    static int statusOf(Throwable e) {
        if (e instanceof EncryptedDocumentException || e instanceof TikaException || e instanceof IllegalStateException) {
            return 422;
        }
        return 500;
    }

    // --- PUT /rmeta (RecursiveMetadataResource.getMetadata) ---------------------------------------

    private void rmeta(HttpExchange ex, String handlerName) throws IOException {
        Headers h = ex.getRequestHeaders();
        int writeLimit = intHeader(h, "writeLimit", -1);
        int maxEmbedded = intHeader(h, "maxEmbeddedResources", -1);
        boolean throwOnWriteLimit = throwOnWriteLimitReached(h);
        BasicContentHandlerFactory.HANDLER_TYPE type =
                BasicContentHandlerFactory.parseHandlerType(handlerName, BasicContentHandlerFactory.HANDLER_TYPE.XML);
        ParseContext context = new ParseContext();
        Metadata metadata = new Metadata();
        fillMetadata(metadata, h);
        RecursiveParserWrapper wrapper = new RecursiveParserWrapper(new AutoDetectParser(config));
        RecursiveParserWrapperHandler handler = new RecursiveParserWrapperHandler(
                new BasicContentHandlerFactory(type, writeLimit, throwOnWriteLimit, context), maxEmbedded,
                config.getMetadataFilter());
        try {
            parse(wrapper, ex.getRequestBody(), handler, metadata, context);
        } catch (Exception e) {
            // Recorded in the container's metadata by RecursiveParserWrapper; the answer is still 200.
            if (!WriteLimitReachedException.isWriteLimitReached(e)) log("parse failed: " + e);
        }
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        try (Writer w = new OutputStreamWriter(out, StandardCharsets.UTF_8)) {
            writeJson(handler.getMetadataList(), w);
        }
        send(ex, 200, "application/json", out.toByteArray());
    }

    private static int intHeader(Headers h, String name, int dflt) {
        String v = h.getFirst(name);
        return v == null ? dflt : Integer.parseInt(v.trim());
    }

    private static boolean throwOnWriteLimitReached(Headers h) {
        String v = h.getFirst("throwOnWriteLimitReached");
        if (v == null) return true; // HandlerConfig.DEFAULT_HANDLER_CONFIG
        if (v.equalsIgnoreCase("true")) return true;
        if (v.equalsIgnoreCase("false")) return false;
        throw new IllegalArgumentException("'throwOnWriteLimitReached' must be either 'true' or 'false'");
    }

    /** JsonMetadataList.toJson: an array of objects; one value a string, several an array. */
    static void writeJson(List<Metadata> list, Writer w) throws IOException {
        w.write('[');
        for (int i = 0; i < list.size(); i++) {
            if (i > 0) w.write(',');
            Metadata m = list.get(i);
            w.write('{');
            boolean first = true;
            for (String name : m.names()) {
                String[] values = m.getValues(name);
                if (values.length == 0) continue;
                if (!first) w.write(',');
                first = false;
                jsonString(name, w);
                w.write(':');
                if (values.length == 1) {
                    jsonString(values[0], w);
                } else {
                    w.write('[');
                    for (int j = 0; j < values.length; j++) {
                        if (j > 0) w.write(',');
                        jsonString(values[j], w);
                    }
                    w.write(']');
                }
            }
            w.write('}');
        }
        w.write(']');
    }

    private static void jsonString(String s, Writer w) throws IOException {
        w.write('"');
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"': w.write("\\\""); break;
                case '\\': w.write("\\\\"); break;
                case '\n': w.write("\\n"); break;
                case '\r': w.write("\\r"); break;
                case '\t': w.write("\\t"); break;
                case '\b': w.write("\\b"); break;
                case '\f': w.write("\\f"); break;
                default:
                    if (c < 0x20) w.write(String.format(Locale.ROOT, "\\u%04X", (int) c));
                    else w.write(c);
            }
        }
        w.write('"');
    }

    // --- Shared by both resources (TikaResource.fillMetadata / parse) -----------------------------

    /** The request headers the official server turns into metadata. */
    static void fillMetadata(Metadata metadata, Headers h) {
        String fileName = fileName(h);
        if (fileName != null) metadata.set(TikaCoreProperties.RESOURCE_NAME_KEY, fileName);
        String contentType = h.getFirst("Content-Type");
        if (contentType != null) {
            String media = contentType.split(";")[0].trim().toLowerCase(Locale.ROOT);
            boolean ignored = media.isEmpty() || media.equals("*/*") || media.endsWith("/xml")
                    || media.equals("application/octet-stream");
            if (!ignored) {
                String value = contentType.trim();
                metadata.add(Metadata.CONTENT_TYPE, value);
                metadata.add(TikaCoreProperties.CONTENT_TYPE_USER_OVERRIDE, value);
            }
        }
        String length = h.getFirst("Content-Length");
        if (length != null) metadata.set(Metadata.CONTENT_LENGTH, length);
        for (Map.Entry<String, List<String>> e : h.entrySet()) {
            String key = e.getKey();
            if (key.regionMatches(true, 0, META_PREFIX, 0, META_PREFIX.length())) {
                for (String v : e.getValue()) metadata.add(key.substring(META_PREFIX.length()), v);
            }
        }
    }

    private static final Pattern FILENAME = Pattern.compile(
            "(?i)^\\s*attachment\\s*;(?:.*;)?\\s*filename\\s*=\\s*(?:\"((?:[^\"\\\\]|\\\\.)*)\"|([^;\\s]+))");

    static String fileName(Headers h) {
        String disposition = h.getFirst("Content-Disposition");
        if (disposition != null) {
            Matcher m = FILENAME.matcher(disposition);
            if (m.find()) return m.group(1) != null ? m.group(1).replaceAll("\\\\(.)", "$1") : m.group(2);
        }
        return h.getFirst("File-Name");
    }

    private void parse(Parser parser, InputStream in, ContentHandler handler, Metadata metadata, ParseContext context)
            throws IOException, SAXException, TikaException {
        long id = taskIds.incrementAndGet();
        tasks.put(id, new long[] {System.currentTimeMillis()});
        try {
            parser.parse(in, handler, metadata, context);
        } finally {
            tasks.remove(id);
            in.close();
        }
    }

    /** Ends the process when a parse runs past the task timeout (the official server's watchdog). */
    private void startWatchdog() {
        Thread t = new Thread(() -> {
            while (true) {
                try {
                    Thread.sleep(Math.min(1000, Math.max(50, taskTimeoutMillis / 10)));
                } catch (InterruptedException e) {
                    return;
                }
                long now = System.currentTimeMillis();
                for (long[] started : tasks.values()) {
                    if (now - started[0] > taskTimeoutMillis) {
                        log("a parse ran longer than the task timeout (" + taskTimeoutMillis + " ms): exiting");
                        Runtime.getRuntime().halt(EXIT_TIMEOUT);
                    }
                }
            }
        }, "tika-watchdog");
        t.setDaemon(true);
        t.start();
    }

    // --- Responses ------------------------------------------------------------------------------

    private static void text(HttpExchange ex, int status, String body) throws IOException {
        send(ex, status, "text/plain", body.getBytes(StandardCharsets.UTF_8));
    }

    private static void empty(HttpExchange ex, int status) throws IOException {
        ex.sendResponseHeaders(status, -1);
    }

    private static void send(HttpExchange ex, int status, String type, byte[] body) throws IOException {
        ex.getResponseHeaders().set("Content-Type", type);
        ex.sendResponseHeaders(status, body.length == 0 ? -1 : body.length);
        if (body.length > 0) {
            try (OutputStream os = ex.getResponseBody()) {
                os.write(body);
            }
        }
    }

    private static void log(String message) {
        System.err.println("TikaHost: " + message);
    }
}
