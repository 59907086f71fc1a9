/** Spreadsheets of numbers for the Track form, read here: the file is outside input. */
import { BridgeHandlerError } from '../../bridge/dispatcher';
import { SpreadsheetError, readSpreadsheet } from '../spreadsheet-import';
import type { DomainHandlers, HandlerContext } from './context';
import { shippingLineOptions } from './tracking-requests';

export const spreadsheetHandlers = (
  _ctx: HandlerContext,
): DomainHandlers<'readTrackingSpreadsheet'> => ({
  readTrackingSpreadsheet: async ({ fileName, dataBase64 }) => {
    try {
      return await readSpreadsheet(
        fileName,
        Buffer.from(dataBase64, 'base64'),
        shippingLineOptions(),
      );
    } catch (error) {
      if (error instanceof SpreadsheetError) throw new BridgeHandlerError(error.message);
      throw error;
    }
  },
});
