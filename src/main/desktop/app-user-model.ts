/**
 * Windows groups notifications and taskbar buttons by AppUserModelId and shows no notification
 * at all for an app without one: it must equal the installer's appId (electron-builder.yml).
 */
export const APP_USER_MODEL_ID = 'com.quayside.desktop';
