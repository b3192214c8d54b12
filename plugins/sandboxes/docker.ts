/** docker: the CLI in a container of an image the user names (see _container.ts). */
import { containerSandbox } from './_container.ts';

export default containerSandbox('docker');
