/** Everything the document routes and the SMTP listener share, built once per service. */
import type { Clock } from '../../shared/clock';
import type { EventSink } from '../events/event-sink';
import type { ServiceStorage } from '../store';
import type { DocumentStore } from '../store/documents';
import type { ReferenceData } from '../store/reference';
import { DocumentFiles } from './files';
import { DocumentRenderer } from './render';
import type { DocumentBudget } from './budget';
import type { ReaderLogger } from './document-reader';
import { DocumentService, type CreateTrackingRequest, type DocumentServiceDeps } from './service';

export class Documents {
  readonly store: DocumentStore;
  readonly files: DocumentFiles;
  readonly renderer: DocumentRenderer;
  readonly service: DocumentService;
  /** Host part of inbox addresses (track+<token>@host). */
  readonly mailDomain: string;

  constructor(options: {
    stores: ServiceStorage;
    dataDir: string;
    ref: ReferenceData;
    clock: Clock;
    events: EventSink;
    createTrackingRequest: CreateTrackingRequest;
    findTrackingRequest: DocumentServiceDeps['findTrackingRequest'];
    budget?: Partial<DocumentBudget>;
    logger?: ReaderLogger;
    mailDomain: string;
  }) {
    this.mailDomain = options.mailDomain;
    this.store = options.stores.documents;
    this.files = new DocumentFiles(options.dataDir);
    this.renderer = new DocumentRenderer(this.store);
    this.service = new DocumentService({
      stores: options.stores,
      files: this.files,
      ref: options.ref,
      clock: options.clock,
      events: options.events,
      createTrackingRequest: options.createTrackingRequest,
      findTrackingRequest: options.findTrackingRequest,
      render: (row) => this.renderer.document(row),
      budget: options.budget,
      logger: options.logger,
    });
  }

  inboxAddress(token: string): string {
    return `track+${token}@${this.mailDomain}`;
  }
}
