package org.msg.jsmppsmsc;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.Charset;
import java.nio.charset.StandardCharsets;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Date;
import java.util.HashMap;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.jsmpp.SMPPConstant;
import org.jsmpp.bean.BindType;
import org.jsmpp.bean.BroadcastSm;
import org.jsmpp.bean.CancelBroadcastSm;
import org.jsmpp.bean.CancelSm;
import org.jsmpp.bean.DataSm;
import org.jsmpp.bean.DeliveryReceipt;
import org.jsmpp.bean.ESMClass;
import org.jsmpp.bean.GSMSpecificFeature;
import org.jsmpp.bean.MessageMode;
import org.jsmpp.bean.MessageType;
import org.jsmpp.bean.NumberingPlanIndicator;
import org.jsmpp.bean.OptionalParameter;
import org.jsmpp.bean.QueryBroadcastSm;
import org.jsmpp.bean.QuerySm;
import org.jsmpp.bean.RawDataCoding;
import org.jsmpp.bean.RegisteredDelivery;
import org.jsmpp.bean.ReplaceSm;
import org.jsmpp.bean.SubmitMulti;
import org.jsmpp.bean.SubmitSm;
import org.jsmpp.bean.TypeOfNumber;
import org.jsmpp.extra.ProcessRequestException;
import org.jsmpp.extra.SessionState;
import org.jsmpp.session.BindRequest;
import org.jsmpp.session.BroadcastSmResult;
import org.jsmpp.session.DataSmResult;
import org.jsmpp.session.QueryBroadcastSmResult;
import org.jsmpp.session.QuerySmResult;
import org.jsmpp.session.SMPPServerSession;
import org.jsmpp.session.SMPPServerSessionListener;
import org.jsmpp.session.ServerMessageReceiverListener;
import org.jsmpp.session.Session;
import org.jsmpp.session.SubmitMultiResult;
import org.jsmpp.session.SubmitSmResult;
import org.jsmpp.session.connection.ServerConnection;
import org.jsmpp.session.connection.ServerConnectionFactory;
import org.jsmpp.session.connection.socket.ServerSocketConnection;
import org.jsmpp.util.DeliveryReceiptState;
import org.jsmpp.util.MessageId;

/**
 * An SMS centre on jsmpp, an SMPP stack written by nobody on this project, so the connector is
 * checked against a peer that does not share its assumptions. Accepts bind_transceiver with one
 * system_id/password, answers submit_sm with ids from its own counter, sends an appendix B
 * delivery receipt when registered_delivery asks for one, and records what arrived (octets as
 * received) for a small HTTP control API. Loopback only; both ports may be 0 (free, printed).
 *
 * <p>jsmpp reads C-octet strings with the JVM's default charset: run with
 * -Dfile.encoding=ISO-8859-1 so an address's octets survive the round trip unchanged.
 */
public final class JsmppSmsc implements ServerMessageReceiverListener {
  private record Submit(
      long atMs,
      String messageId,
      byte[] sourceAddr,
      int ton,
      int npi,
      String dest,
      int dataCoding,
      int esmClass,
      int registeredDelivery,
      byte[] shortMessage) {}

  private final String systemId;
  private final String password;
  private final long receiptDelayMs;
  private final int keepSubmits;
  private final AtomicLong nextId = new AtomicLong();
  private final AtomicBoolean refuseBinds = new AtomicBoolean();
  private final AtomicLong bindsRefused = new AtomicLong();
  private final AtomicLong receiptsSent = new AtomicLong();
  private final Set<SMPPServerSession> bound = ConcurrentHashMap.newKeySet();
  /** deliver_sm waits for its response: enough threads that receipts keep up with a bench. */
  private final ScheduledExecutorService scheduler = Executors.newScheduledThreadPool(16);
  private static final ESMClass RECEIPT_ESM_CLASS =
      new ESMClass(MessageMode.DEFAULT, MessageType.SMSC_DEL_RECEIPT, GSMSpecificFeature.DEFAULT);
  private final ArrayDeque<Submit> submits = new ArrayDeque<>();
  private long submitCount;
  private long firstSubmitMs;
  private long lastSubmitMs;

  private JsmppSmsc(String systemId, String password, long receiptDelayMs, int keepSubmits) {
    this.systemId = systemId;
    this.password = password;
    this.receiptDelayMs = receiptDelayMs;
    this.keepSubmits = keepSubmits;
  }

  public static void main(String[] args) throws IOException {
    Map<String, String> options = new HashMap<>();
    for (String arg : args) {
      String[] pair = arg.replaceFirst("^--", "").split("=", 2);
      options.put(pair[0], pair.length > 1 ? pair[1] : "true");
    }
    JsmppSmsc smsc =
        new JsmppSmsc(
            option(options, "system-id", "smsc"),
            option(options, "password", "smsc"),
            Long.parseLong(option(options, "receipt-delay-ms", "100")),
            Integer.parseInt(option(options, "keep-submits", "10000")));
    int controlPort = smsc.startControl(Integer.parseInt(option(options, "control-port", "0")));
    LoopbackFactory factory = new LoopbackFactory();
    SMPPServerSessionListener listener =
        new SMPPServerSessionListener(Integer.parseInt(option(options, "port", "0")), factory);
    listener.setMessageReceiverListener(smsc);
    listener.setSessionStateListener(smsc::onStateChange);
    // One line each, read by the Node helper (packages/testing, startJsmppSmsc).
    System.out.println("jsmpp-smsc control " + controlPort);
    System.out.println("jsmpp-smsc listening " + factory.socket.getLocalPort());
    System.out.flush();
    if (!Charset.defaultCharset().equals(StandardCharsets.ISO_8859_1)) {
      System.err.println("jsmpp-smsc: default charset not ISO-8859-1; address octets may change");
    }
    while (true) {
      SMPPServerSession session = listener.accept();
      Thread binder = new Thread(() -> smsc.bind(session), "bind");
      binder.setDaemon(true);
      binder.start();
    }
  }

  /** jsmpp reads an empty C-octet string as null. */
  private static String orEmpty(String value) {
    return value == null ? "" : value;
  }

  private static String option(Map<String, String> options, String name, String fallback) {
    String env = System.getenv("JSMPP_SMSC_" + name.toUpperCase().replace('-', '_'));
    return options.getOrDefault(name, env != null ? env : fallback);
  }

  /** jsmpp's own factory listens on every interface; tests stay on loopback. */
  private static final class LoopbackFactory implements ServerConnectionFactory {
    ServerSocket socket;

    public ServerConnection listen(int port) throws IOException {
      return listen(port, 0, 50);
    }

    public ServerConnection listen(int port, int timeout) throws IOException {
      return listen(port, timeout, 50);
    }

    public ServerConnection listen(int port, int timeout, int backlog) throws IOException {
      // No accept timeout, whatever jsmpp asks: an idle SMSC waits for binds indefinitely.
      socket = new ServerSocket(port, backlog, InetAddress.getLoopbackAddress());
      return new ServerSocketConnection(socket);
    }
  }

  private void bind(SMPPServerSession session) {
    try {
      BindRequest request = session.waitForBind(5_000);
      if (refuseBinds.get()) {
        bindsRefused.incrementAndGet();
        request.reject(SMPPConstant.STAT_ESME_RBINDFAIL);
      } else if (request.getBindType() != BindType.BIND_TRX
          || !systemId.equals(request.getSystemId())) {
        request.reject(SMPPConstant.STAT_ESME_RBINDFAIL);
      } else if (!password.equals(request.getPassword())) {
        request.reject(SMPPConstant.STAT_ESME_RINVPASWD);
      } else {
        request.accept(systemId);
      }
    } catch (Exception e) {
      System.err.println("jsmpp-smsc: bind failed: " + e);
      session.unbindAndClose();
    }
  }

  private void onStateChange(SessionState newState, SessionState oldState, Session source) {
    if (!(source instanceof SMPPServerSession session)) return;
    if (newState.isBound()) bound.add(session);
    else bound.remove(session);
  }

  @Override
  public SubmitSmResult onAcceptSubmitSm(SubmitSm submit, SMPPServerSession source)
      throws ProcessRequestException {
    String id = Long.toString(nextId.incrementAndGet());
    Submit record =
        new Submit(
            System.currentTimeMillis(),
            id,
            orEmpty(submit.getSourceAddr()).getBytes(Charset.defaultCharset()),
            submit.getSourceAddrTon(),
            submit.getSourceAddrNpi(),
            orEmpty(submit.getDestAddress()),
            submit.getDataCoding() & 0xff,
            submit.getEsmClass() & 0xff,
            submit.getRegisteredDelivery() & 0xff,
            submit.getShortMessage() == null ? new byte[0] : submit.getShortMessage());
    synchronized (this) {
      if (submitCount++ == 0) firstSubmitMs = record.atMs;
      lastSubmitMs = record.atMs;
      submits.addLast(record);
      while (submits.size() > keepSubmits) submits.removeFirst();
    }
    // Bit 0 of registered_delivery: a receipt on success or failure (SMPP 3.4 §5.2.17).
    if ((record.registeredDelivery & 0x01) != 0) {
      scheduler.schedule(
          () -> sendReceipt(submit, record, 0), receiptDelayMs, TimeUnit.MILLISECONDS);
    }
    try {
      return new SubmitSmResult(new MessageId(id), new OptionalParameter[0]);
    } catch (Exception e) {
      throw new ProcessRequestException(e.getMessage(), SMPPConstant.STAT_ESME_RSYSERR);
    }
  }

  /** Appendix B receipt on some bound session (an ESME may receive it on another of its binds). */
  private void sendReceipt(SubmitSm submit, Submit record, int attempt) {
    List<SMPPServerSession> sessions = new ArrayList<>(bound);
    if (sessions.isEmpty()) {
      if (attempt < 60) {
        scheduler.schedule(() -> sendReceipt(submit, record, attempt + 1), 1, TimeUnit.SECONDS);
      }
      return;
    }
    Date done = new Date();
    Date submitted = new Date(record.atMs);
    DeliveryReceipt receipt =
        new DeliveryReceipt(
            record.messageId, 1, 1, submitted, done, DeliveryReceiptState.DELIVRD, "000", "");
    String text = receipt.toString();
    try {
      sessions.get((int) (record.atMs % sessions.size()))
          .deliverShortMessage(
              "",
              TypeOfNumber.valueOf(submit.getDestAddrTon()),
              NumberingPlanIndicator.valueOf(submit.getDestAddrNpi()),
              orEmpty(submit.getDestAddress()),
              TypeOfNumber.valueOf(submit.getSourceAddrTon()),
              NumberingPlanIndicator.valueOf(submit.getSourceAddrNpi()),
              orEmpty(submit.getSourceAddr()),
              RECEIPT_ESM_CLASS,
              (byte) 0,
              (byte) 0,
              new RegisteredDelivery(0),
              new RawDataCoding((byte) 0),
              text.getBytes(StandardCharsets.US_ASCII),
              new OptionalParameter.Receipted_message_id(record.messageId),
              new OptionalParameter.Message_state((byte) 2));
      receiptsSent.incrementAndGet();
    } catch (Exception e) {
      if (attempt < 60) {
        scheduler.schedule(() -> sendReceipt(submit, record, attempt + 1), 1, TimeUnit.SECONDS);
      }
    }
  }

  private int startControl(int port) throws IOException {
    InetSocketAddress address = new InetSocketAddress(InetAddress.getLoopbackAddress(), port);
    HttpServer http = HttpServer.create(address, 0);
    http.createContext("/stats", exchange -> reply(exchange, "GET", this::statsJson));
    http.createContext("/submits", exchange -> reply(exchange, "GET", () -> submitsJson(exchange)));
    http.createContext(
        "/refuse-binds",
        exchange ->
            reply(
                exchange,
                "POST",
                () -> {
                  refuseBinds.set(!"on=false".equals(exchange.getRequestURI().getQuery()));
                  return "{\"refuseBinds\":" + refuseBinds.get() + "}";
                }));
    http.createContext(
        "/reset",
        exchange ->
            reply(
                exchange,
                "POST",
                () -> {
                  synchronized (this) {
                    submits.clear();
                    submitCount = 0;
                    firstSubmitMs = 0;
                    lastSubmitMs = 0;
                  }
                  return "{}";
                }));
    // Message ids start again at 1, as an SMSC's do after a restart or a counter wrap.
    http.createContext(
        "/restart-ids",
        exchange ->
            reply(
                exchange,
                "POST",
                () -> {
                  nextId.set(0);
                  return "{}";
                }));
    http.start();
    return http.getAddress().getPort();
  }

  private synchronized String statsJson() {
    return String.format(
        "{\"submits\":%d,\"firstSubmitMs\":%d,\"lastSubmitMs\":%d,\"receipts\":%d,"
            + "\"bound\":%d,\"bindsRefused\":%d,\"refuseBinds\":%b}",
        submitCount,
        firstSubmitMs,
        lastSubmitMs,
        receiptsSent.get(),
        bound.size(),
        bindsRefused.get(),
        refuseBinds.get());
  }

  /** The last N submits (?last=N, default 100), oldest first, octets as hex. */
  private synchronized String submitsJson(HttpExchange exchange) {
    String query = exchange.getRequestURI().getQuery();
    boolean given = query != null && query.startsWith("last=");
    int last = given ? Integer.parseInt(query.substring(5)) : 100;
    HexFormat hex = HexFormat.of();
    List<String> rows = new ArrayList<>();
    int skip = Math.max(0, submits.size() - last);
    for (Submit s : submits) {
      if (skip-- > 0) continue;
      rows.add(
          String.format(
              "{\"messageId\":\"%s\",\"atMs\":%d,\"sourceAddrHex\":\"%s\",\"sourceAddrTon\":%d,"
                  + "\"sourceAddrNpi\":%d,\"destinationAddr\":\"%s\",\"dataCoding\":%d,"
                  + "\"esmClass\":%d,"
                  + "\"registeredDelivery\":%d,\"shortMessageHex\":\"%s\"}",
              s.messageId, s.atMs, hex.formatHex(s.sourceAddr), s.ton, s.npi,
              s.dest.replaceAll("[^0-9A-Za-z+]", ""), s.dataCoding, s.esmClass,
              s.registeredDelivery, hex.formatHex(s.shortMessage)));
    }
    return "[" + String.join(",", rows) + "]";
  }

  private interface Body {
    String get() throws IOException;
  }

  private static void reply(HttpExchange exchange, String method, Body body) throws IOException {
    try {
      if (!method.equals(exchange.getRequestMethod())) {
        exchange.sendResponseHeaders(405, -1);
        return;
      }
      byte[] bytes = body.get().getBytes(StandardCharsets.UTF_8);
      exchange.getResponseHeaders().set("Content-Type", "application/json");
      exchange.sendResponseHeaders(200, bytes.length);
      exchange.getResponseBody().write(bytes);
    } catch (RuntimeException e) {
      exchange.sendResponseHeaders(400, -1);
    } finally {
      exchange.close();
    }
  }

  /** What the SMSC does not implement is answered ESME_RINVCMDID, as SMPP 3.4 §5.1.3 asks. */
  private static ProcessRequestException unsupported(String command) {
    String message = command + " not supported";
    return new ProcessRequestException(message, SMPPConstant.STAT_ESME_RINVCMDID);
  }

  @Override
  public SubmitMultiResult onAcceptSubmitMulti(SubmitMulti submitMulti, SMPPServerSession source)
      throws ProcessRequestException {
    throw unsupported("submit_multi");
  }

  @Override
  public QuerySmResult onAcceptQuerySm(QuerySm querySm, SMPPServerSession source)
      throws ProcessRequestException {
    throw unsupported("query_sm");
  }

  @Override
  public void onAcceptReplaceSm(ReplaceSm replaceSm, SMPPServerSession source)
      throws ProcessRequestException {
    throw unsupported("replace_sm");
  }

  @Override
  public void onAcceptCancelSm(CancelSm cancelSm, SMPPServerSession source)
      throws ProcessRequestException {
    throw unsupported("cancel_sm");
  }

  @Override
  public BroadcastSmResult onAcceptBroadcastSm(BroadcastSm broadcastSm, SMPPServerSession source)
      throws ProcessRequestException {
    throw unsupported("broadcast_sm");
  }

  @Override
  public void onAcceptCancelBroadcastSm(CancelBroadcastSm cancel, SMPPServerSession source)
      throws ProcessRequestException {
    throw unsupported("cancel_broadcast_sm");
  }

  @Override
  public QueryBroadcastSmResult onAcceptQueryBroadcastSm(
      QueryBroadcastSm query, SMPPServerSession source)
      throws ProcessRequestException {
    throw unsupported("query_broadcast_sm");
  }

  @Override
  public DataSmResult onAcceptDataSm(DataSm dataSm, Session source) throws ProcessRequestException {
    throw unsupported("data_sm");
  }
}
